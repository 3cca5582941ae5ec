/** The PortOne sandbox's payment window, as a story drives it. */
import { type Page } from '@playwright/test';

/**
 * Approves in the payment window and waits until the window has closed. The store opens every payment window
 * under one name, so a window still closing when the next payment starts is reused instead of a new popup
 * opening: a story that opens a second window must not click before the first is gone.
 */
export async function approveInWindow(window: Page): Promise<void> {
  const closed = window.waitForEvent('close');
  await window.getByRole('button', { name: 'Approve' }).click();
  await closed;
}
