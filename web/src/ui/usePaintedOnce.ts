import { useEffect, useState } from 'react';

/**
 * False until the browser has painted once after mounting (or, with `ready`, once after `ready` became true). A
 * page asks for its heavier code (react-hook-form, zod) only then, so its largest paint never waits behind that
 * code's download and parsing.
 */
export function usePaintedOnce(ready = true): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    if (!ready || painted) return;
    // A timeout set inside an animation frame runs after that frame's paint.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setPainted(true));
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [ready, painted]);
  return painted;
}
