import type { To } from 'react-router-dom';

export interface NavLinkItem {
  label: string;
  to: To;
}

// The landing sections are anchors on "/", so they work from every page.
export const primaryNavLinks: readonly NavLinkItem[] = [
  { label: 'Method', to: { pathname: '/', hash: '#method' } },
  { label: 'Research', to: { pathname: '/', hash: '#research' } },
  { label: 'Ecosystem', to: { pathname: '/', hash: '#ecosystem' } },
  { label: 'The Proof', to: '/me' },
  { label: 'Products', to: { pathname: '/', hash: '#products' } },
];
