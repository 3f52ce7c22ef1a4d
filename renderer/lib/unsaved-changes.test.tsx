import { render, renderHook, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { confirmLeave, hasUnsavedChanges, setAsk, useUnsavedChanges } from './unsaved-changes.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

function Form({ onLeave }: { onLeave: (left: boolean) => void }) {
  const [text, setText] = useState('');
  const { confirmLeave: leave } = useUnsavedChanges(text !== '', `Discard "${text}"?`);
  return (
    <form>
      <label>
        Name <input value={text} onChange={(e) => setText(e.target.value)} />
      </label>
      <button type="button" onClick={() => onLeave(leave())}>
        Cancel
      </button>
    </form>
  );
}

describe('unsaved changes', () => {
  it('lets a clean form go without asking', async () => {
    const confirm = vi.spyOn(window, 'confirm');
    const left: boolean[] = [];
    render(<Form onLeave={(l) => left.push(l)} />);
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(left).toEqual([true]);
    expect(confirmLeave()).toBe(true);
    expect(hasUnsavedChanges()).toBe(false);
    expect(confirm).not.toHaveBeenCalled();
  });

  it('asks with the form’s question once it is dirty, and stays when the answer is no', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const left: boolean[] = [];
    render(<Form onLeave={(l) => left.push(l)} />);
    await userEvent.type(screen.getByLabelText('Name'), 'abc');
    expect(hasUnsavedChanges()).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(confirm).toHaveBeenCalledWith('Discard "abc"?');
    expect(left).toEqual([false]);
    confirm.mockReturnValue(true);
    // From outside the form (a view switch): the same question, answered yes.
    expect(confirmLeave()).toBe(true);
    expect(confirm).toHaveBeenCalledTimes(2);
  });

  it('asks the browser before the page is left while dirty, and no longer once unmounted', async () => {
    const view = render(<Form onLeave={() => {}} />);
    const fire = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(fire()).toBe(false);
    await userEvent.type(screen.getByLabelText('Name'), 'x');
    expect(fire()).toBe(true);
    view.unmount();
    expect(fire()).toBe(false);
    expect(hasUnsavedChanges()).toBe(false);
  });

  it('can be asked another way (a shell’s own confirmation)', () => {
    const asked: string[] = [];
    const previous = setAsk((q) => {
      asked.push(q);
      return false;
    });
    try {
      const { result } = renderHook(() => useUnsavedChanges(true, 'Leave?'));
      expect(result.current.confirmLeave()).toBe(false);
      expect(confirmLeave()).toBe(false);
      expect(asked).toEqual(['Leave?', 'Leave?']);
    } finally {
      setAsk(previous);
    }
  });
});
