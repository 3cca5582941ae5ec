import { act, fireEvent, renderHook, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderInLang } from '../test/renderInLang';
import { AlertDialog } from './AlertDialog';
import { ConfirmDialog } from './ConfirmDialog';
import { useAlert } from './useAlert';

describe('AlertDialog', () => {
  it('shows the title and message as a modal alert, focused on OK', async () => {
    const onClose = vi.fn();
    renderInLang(<AlertDialog alert={{ title: 'Payment error', message: 'Refused.' }} onClose={onClose} />);
    const dialog = await screen.findByRole('alertdialog', { name: 'Payment error' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(dialog.getAttribute('aria-describedby')).toBe(screen.getByText('Refused.').id);
    const ok = screen.getByRole('button', { name: 'OK' });
    expect(document.activeElement).toBe(ok);
    fireEvent.click(ok);
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it('shows nothing without an alert', () => {
    renderInLang(<AlertDialog alert={null} onClose={() => undefined} />);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});

describe('useAlert', () => {
  it("runs the alert's follow-up once it is closed", async () => {
    const then = vi.fn();
    const { result } = renderHook(() => useAlert());
    act(() => result.current.show({ title: 'T', message: 'M', then }));
    expect(result.current.alert?.title).toBe('T');
    await act(async () => result.current.close());
    expect(result.current.alert).toBeNull();
    expect(then).toHaveBeenCalledOnce();
  });
});

describe('ConfirmDialog', () => {
  it('asks with Cancel focused first, in the page language', async () => {
    const onConfirm = vi.fn();
    const onCancel = vi.fn();
    renderInLang(<ConfirmDialog message="Remove it?" confirmLabel="Remove" onConfirm={onConfirm} onCancel={onCancel} />, 'ko');
    const dialog = await screen.findByRole('alertdialog', { description: 'Remove it?' });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: '취소' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    expect(onConfirm).toHaveBeenCalledOnce();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(onCancel).toHaveBeenCalledOnce();
  });
});
