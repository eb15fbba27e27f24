import { Link } from 'react-router-dom';
import { ButtonLink } from '../button';
import { Dialog } from '../dialog';
import { primaryNavLinks } from './nav-links';

interface MobileMenuProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export default function MobileMenu({ open, onOpenChange }: MobileMenuProps) {
  const close = () => onOpenChange(false);
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Menu" placement="sheet">
      <nav aria-label="Mobile">
        <ul className="flex flex-col gap-1">
          {primaryNavLinks.map((link) => (
            <li key={link.label}>
              <Link
                to={link.to}
                onClick={close}
                className="block rounded-xl px-4 py-3 text-base font-medium text-ink-950 hover:bg-ink-50 focus-visible:outline-3 focus-visible:outline-spark-500"
              >
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
        <div className="mt-6 flex flex-col gap-3 border-t border-slate-200 pt-6">
          <ButtonLink to="/interest" onClick={close} size="lg">
            Get Started
          </ButtonLink>
          <ButtonLink to="/signin" onClick={close} variant="secondary" size="lg">
            Sign in
          </ButtonLink>
        </div>
      </nav>
    </Dialog>
  );
}
