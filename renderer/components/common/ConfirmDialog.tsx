/**
 * The one confirmation the dashboard asks before something it cannot take back: the kill switch,
 * revoking a token, deleting a route, disabling the reaper for picked apps, leaving a form with
 * unsaved changes. An alertdialog over the view (ModalDialog: focus inside, Tab kept in, Escape is
 * Cancel, focus given back to what opened it), a title, what it does, and two buttons: Cancel first,
 * then the action. `focus` says which one has the focus when it opens.
 */
import { type ReactNode, useId } from 'react';
import { createPortal } from 'react-dom';
import { ModalDialog } from './ModalDialog.tsx';

export function ConfirmDialog(props: {
  title: string;
  /** What confirming does (a sentence, or paragraphs). */
  body: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  /** 'danger' for what destroys or stops; 'primary' for what restores (turning the kill switch off). */
  tone?: 'danger' | 'primary';
  /** Which button has the focus when the dialog opens (default: Cancel, the safe answer). */
  focus?: 'confirm' | 'cancel';
  /** While the action runs: the action's button is disabled. */
  busy?: boolean;
  /** Why the action failed, shown above the buttons. */
  error?: string | null;
  onConfirm: () => void;
  /** Cancel, Escape. */
  onCancel: () => void;
  /** Where focus goes on close when what opened the dialog is no longer in the page. */
  fallback?: () => HTMLElement | null;
}) {
  const id = useId();
  const focusConfirm = props.focus === 'confirm';
  // In the body, not where it was opened (a table's cell, a bar): over everything, whatever the
  // row's own layout.
  return createPortal(
    <ModalDialog
      role="alertdialog"
      labelledBy={`${id}-title`}
      describedBy={`${id}-body`}
      className="card confirm-dialog"
      layerClassName="overlay"
      onRequestClose={props.onCancel}
      fallback={props.fallback}
    >
      <h2 id={`${id}-title`}>{props.title}</h2>
      <div id={`${id}-body`} className="confirm-body">
        {typeof props.body === 'string' ? <p>{props.body}</p> : props.body}
      </div>
      {props.error && (
        <p className="field-error" role="alert">
          {props.error}
        </p>
      )}
      <div className="form-actions">
        <button type="button" data-autofocus={focusConfirm ? undefined : true} onClick={props.onCancel}>
          {props.cancelLabel}
        </button>
        <button
          type="button"
          data-autofocus={focusConfirm ? true : undefined}
          className={props.tone ?? 'danger'}
          disabled={props.busy}
          onClick={props.onConfirm}
        >
          {props.confirmLabel}
        </button>
      </div>
    </ModalDialog>,
    document.body,
  );
}
