import { Toaster as SonnerToaster } from 'sonner';
import { requestToaster } from './toaster-gate';

export { toast } from 'sonner';

// Importing this module means the screen can toast: ask the root layout to mount the Toaster.
requestToaster();

export default function Toaster() {
  return <SonnerToaster position="top-center" richColors closeButton toastOptions={{ duration: 5000 }} />;
}
