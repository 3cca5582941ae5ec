import { useEffect, useRef } from 'react';

/** Whether any part of `element` is inside the window's viewport. */
function inViewport(element: Element): boolean {
  const box = element.getBoundingClientRect();
  return box.bottom > 0 && box.top < window.innerHeight;
}

/**
 * A ref for an element that shows the outcome of an action (a sent report, a changed card): when `shown` turns
 * true while the element is off screen (a long form just shrank into a short message), the window scrolls it into
 * view, so the customer sees the outcome rather than the footer.
 */
export function useReveal<T extends HTMLElement>(shown: unknown) {
  const ref = useRef<T>(null);
  useEffect(() => {
    const element = ref.current;
    if (!shown || !element || inViewport(element) || typeof element.scrollIntoView !== 'function') return;
    element.scrollIntoView({ block: 'center' });
  }, [shown]);
  return ref;
}
