/**
 * The frame the route and rule editors share: the modal dialog, the form with its title and Close,
 * the form's own problems (or a word that some fields have one), the fields' grid, and Save / Cancel
 * with the busy state. Each editor gives its fields (and what it shows under them).
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useDashboard } from '../../store/context.tsx';
import { ModalDialog } from './ModalDialog.tsx';
import type { useEditorForm } from './use-editor-form.tsx';

export function EditorForm(props: {
  form: Pick<ReturnType<typeof useEditorForm>, 'id' | 'problems' | 'saving' | 'submit' | 'text'>;
  title: string;
  submitLabel: string;
  /** Asked by Close, Cancel and Escape (unsaved changes ask first). */
  onClose: () => void;
  /** The id of the view's heading, focused on close when what opened the editor is gone. */
  fallbackId: string;
  /** The fields, in the two-column grid. */
  children: ReactNode;
  /** Shown under the fields, before the buttons. */
  after?: ReactNode;
}) {
  const { t } = useTranslation(['routes', 'validation']);
  const { id, problems, saving, submit, text } = props.form;
  const perform = useDashboard((s) => s.perform);
  return (
    <ModalDialog
      labelledBy={`${id}-title`}
      onRequestClose={props.onClose}
      fallback={() => document.getElementById(props.fallbackId)}
    >
      <form
        className="editor"
        onSubmit={(e) => perform(() => submit(e))}
        aria-labelledby={`${id}-title`}
        noValidate
      >
        <div className="editor-head">
          <h2 id={`${id}-title`}>{props.title}</h2>
          <button type="button" className="link" onClick={props.onClose}>
            {t('editor.close')}
          </button>
        </div>
        {problems.form && (
          <p className="callout danger" role="alert">
            {problems.form.map(text).join(' ')}
          </p>
        )}
        {Object.keys(problems).length > 0 && !problems.form && (
          <p className="field-error" role="alert">
            {t('validation:someFields')}
          </p>
        )}
        <div className="grid">{props.children}</div>
        {props.after}
        <div className="form-actions">
          <button type="submit" className="primary" disabled={saving}>
            {saving ? t('editor.saving') : props.submitLabel}
          </button>
          <button type="button" onClick={props.onClose}>
            {t('editor.cancel')}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
