import { useEffect, type RefObject } from 'react';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * An open menu keeps the keyboard (issue 29, finding 16): Tab and Shift+Tab go round the button that opened it and
 * the menu's own items, never into the page behind the dimmer, and Esc closes the menu and puts focus back on the
 * button.
 */
export function useMenuTrap(
  open: boolean,
  button: RefObject<HTMLElement | null>,
  menu: RefObject<HTMLElement | null>,
  close: () => void,
): void {
  useEffect(() => {
    if (!open) return undefined;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        close();
        button.current?.focus();
        return;
      }
      if (event.key !== 'Tab') return;
      const items = [
        button.current,
        ...Array.from(menu.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? []).filter(
          (item) => item.getClientRects().length > 0,
        ),
      ].filter((item): item is HTMLElement => item !== null);
      if (items.length === 0) return;
      const at = items.indexOf(document.activeElement as HTMLElement);
      const next = event.shiftKey ? (at <= 0 ? items.length - 1 : at - 1) : at === -1 || at === items.length - 1 ? 0 : at + 1;
      event.preventDefault();
      items[next]?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open, button, menu, close]);
}
