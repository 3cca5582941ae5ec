/** State of one page's alert dialog. */
import { useCallback, useState } from 'react';
import type { AlertContent } from './AlertDialog';

/** `show` opens an alert, `close` closes it and then runs its `then`. */
export function useAlert() {
  const [alert, setAlert] = useState<AlertContent | null>(null);
  const close = useCallback(() => {
    setAlert((current) => {
      if (current?.then) queueMicrotask(current.then);
      return null;
    });
  }, []);
  return { alert, show: setAlert, close };
}
