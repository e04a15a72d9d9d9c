import type { ReactNode } from 'react';

/**
 * A wide table in a box of its own that scrolls sideways on a narrow screen, so the page itself never does. It can
 * take the keyboard's focus, so the arrow keys scroll it too.
 */
export function ScrollBox({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="scroll-box" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
