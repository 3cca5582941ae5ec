import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Button } from './Button';

describe('Button', () => {
  it('is a normal button by default, and a submit button when asked', () => {
    const onClick = vi.fn();
    render(
      <>
        <Button onClick={onClick}>Save</Button>
        <Button type="submit" variant="secondary">
          Send
        </Button>
      </>,
    );
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save.getAttribute('type')).toBe('button');
    expect(save.className).toBe('button button--primary');
    fireEvent.click(save);
    expect(onClick).toHaveBeenCalledOnce();
    expect(screen.getByRole('button', { name: 'Send' }).getAttribute('type')).toBe('submit');
  });

  it('shows the indicator while loading, keeps its name for screen readers and takes no clicks', () => {
    const onClick = vi.fn();
    const { container } = render(
      <Button loading onClick={onClick}>
        Pay
      </Button>,
    );
    const pay = screen.getByRole('button', { name: 'Pay' }) as HTMLButtonElement;
    expect(pay.disabled).toBe(true);
    expect(pay.getAttribute('aria-busy')).toBe('true');
    expect(container.querySelector('.button__spinner')).not.toBeNull();
    expect(screen.getByText('Pay').className).toBe('visually-hidden');
    fireEvent.click(pay);
    expect(onClick).not.toHaveBeenCalled();
  });

  it('when disabled, sends a click to the disabled handler if there is one', () => {
    const onClick = vi.fn();
    const onDisabledClick = vi.fn();
    render(
      <>
        <Button disabled onClick={onClick}>
          Plain
        </Button>
        <Button disabled onClick={onClick} onDisabledClick={onDisabledClick}>
          Routed
        </Button>
      </>,
    );
    expect((screen.getByRole('button', { name: 'Plain' }) as HTMLButtonElement).disabled).toBe(true);
    const routed = screen.getByRole('button', { name: 'Routed' }) as HTMLButtonElement;
    expect(routed.disabled).toBe(false);
    expect(routed.getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(routed);
    expect(onDisabledClick).toHaveBeenCalledOnce();
    expect(onClick).not.toHaveBeenCalled();
  });
});
