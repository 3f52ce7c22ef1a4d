/**
 * "Discard changes?": the page's own question when a form with unsaved changes is about to be left
 * (lib/unsaved-changes.ts asks it; closing the tab is the browser's own beforeunload question).
 * Keep editing has the focus; Escape keeps editing too. Mounted once, by the shell.
 *
 * The answer is given after the dialog is gone (flushSync): focus is back in the form first, so the
 * form closing next gives it on to what opened the form.
 */
import { useSyncExternalStore } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { onQuestion, pendingQuestion } from '../../lib/unsaved-changes.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';

export function DiscardDialog() {
  const { t } = useTranslation('common');
  const asked = useSyncExternalStore(onQuestion, pendingQuestion, pendingQuestion);
  if (!asked) return null;
  const answer = (leave: boolean) => flushSync(() => asked.answer(leave));
  return (
    <ConfirmDialog
      title={t('discard.title')}
      body={asked.question}
      confirmLabel={t('buttons.discard')}
      cancelLabel={t('buttons.keepEditing')}
      focus="cancel"
      onConfirm={() => answer(true)}
      onCancel={() => answer(false)}
    />
  );
}
