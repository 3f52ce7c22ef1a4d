import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DiscardDialog } from '../components/common/DiscardDialog.tsx';
import { i18n } from '../i18n.ts';
import { confirmLeave, hasUnsavedChanges, useUnsavedChanges } from './unsaved-changes.ts';

afterEach(async () => {
  vi.restoreAllMocks();
  await i18n.changeLanguage('en');
});

function Form({ onLeave }: { onLeave: (left: boolean) => void }) {
  const [text, setText] = useState('');
  const { confirmLeave: leave } = useUnsavedChanges(text !== '', `Leave "${text}" unsaved?`);
  return (
    <form>
      <label>
        Name <input value={text} onChange={(e) => setText(e.target.value)} />
      </label>
      <button
        type="button"
        onClick={() => {
          leave().then(onLeave, () => {});
        }}
      >
        Cancel
      </button>
    </form>
  );
}

const page = (onLeave: (left: boolean) => void) =>
  render(
    <>
      <Form onLeave={onLeave} />
      <DiscardDialog />
    </>,
  );

describe('unsaved changes', () => {
  it('lets a clean form go without asking', async () => {
    const confirm = vi.spyOn(window, 'confirm');
    const left: boolean[] = [];
    page((l) => left.push(l));
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await vi.waitFor(() => expect(left).toEqual([true]));
    expect(await confirmLeave()).toBe(true);
    expect(hasUnsavedChanges()).toBe(false);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(confirm).not.toHaveBeenCalled();
  });

  it('asks in the page’s own dialog once dirty: Keep editing has the focus and stays, Discard leaves', async () => {
    const confirm = vi.spyOn(window, 'confirm');
    const user = userEvent.setup();
    const left: boolean[] = [];
    page((l) => left.push(l));
    await user.type(screen.getByLabelText('Name'), 'abc');
    expect(hasUnsavedChanges()).toBe(true);
    const cancel = screen.getByRole('button', { name: 'Cancel' });
    await user.click(cancel);
    const dialog = await screen.findByRole('alertdialog', { name: 'Discard changes?' });
    expect(dialog.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(dialog.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Leave "abc" unsaved?',
    );
    const keep = within(dialog).getByRole('button', { name: 'Keep editing' });
    expect(document.activeElement).toBe(keep);
    expect(left).toEqual([]);
    await user.click(keep);
    await vi.waitFor(() => expect(left).toEqual([false]));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    // Focus back where it was when asked; the edit still there.
    expect(document.activeElement).toBe(cancel);
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('abc');

    // Escape is Keep editing too.
    await user.click(cancel);
    await screen.findByRole('alertdialog');
    await user.keyboard('{Escape}');
    await vi.waitFor(() => expect(left).toEqual([false, false]));
    expect(screen.queryByRole('alertdialog')).toBeNull();

    // From outside the form (a view switch): the same question, answered Discard.
    const leaving = confirmLeave();
    const again = await screen.findByRole('alertdialog', { name: 'Discard changes?' });
    await user.click(within(again).getByRole('button', { name: 'Discard' }));
    expect(await leaving).toBe(true);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(confirm).not.toHaveBeenCalled();
  });

  it('asks once when asked twice at the same time, both waiting on the one answer', async () => {
    const user = userEvent.setup();
    page(() => {});
    await user.type(screen.getByLabelText('Name'), 'x');
    const first = confirmLeave();
    const second = confirmLeave();
    await screen.findByRole('alertdialog');
    expect(screen.getAllByRole('alertdialog')).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Discard' }));
    expect(await Promise.all([first, second])).toEqual([true, true]);
  });

  it('asks in French', async () => {
    await i18n.changeLanguage('fr');
    const user = userEvent.setup();
    page(() => {});
    await user.type(screen.getByLabelText('Name'), 'x');
    const leaving = confirmLeave();
    const dialog = await screen.findByRole('alertdialog', { name: 'Abandonner les modifications ?' });
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Continuer la saisie' }));
    await user.click(within(dialog).getByRole('button', { name: 'Abandonner' }));
    expect(await leaving).toBe(true);
  });

  it('asks the browser before the page is left while dirty, and no longer once unmounted', async () => {
    const view = page(() => {});
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
});
