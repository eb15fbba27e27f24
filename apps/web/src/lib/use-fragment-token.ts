import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';

/**
 * The `token` an e-mailed link carries in its fragment (which no server and no Referer sees), read once when the
 * page opens; the fragment then leaves the address bar, so history and screen shares never show it.
 */
export function useFragmentToken(): string | null {
  const location = useLocation();
  const navigate = useNavigate();
  const [token] = useState(() => new URLSearchParams(location.hash.replace(/^#/, '')).get('token'));
  useEffect(() => {
    if (location.hash) void navigate({ hash: '' }, { replace: true });
  }, [location.hash, navigate]);
  return token;
}
