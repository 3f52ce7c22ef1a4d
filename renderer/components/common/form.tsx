/**
 * The pieces every settings form is made of: a labelled input with its unit and its hint (or the
 * problem the engine found with it), the form's problem, and the save row. One place for the markup
 * and the accessibility wiring (aria-invalid, aria-describedby).
 */
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api-errors.ts';
import { InputError } from '../../../shared/errors.ts';
import { problemText } from '../../../shared/validation.ts';
import { i18n } from '../../i18n.ts';
import { errorText } from '../../lib/errors.ts';

/**
 * The problems of a refused change, by field ("form" for those of the whole change), each in the
 * language shown (said when called: call it again after a language switch).
 */
export function problemsByField(error: unknown): Record<string, string> {
  const list = error instanceof ApiError || error instanceof InputError ? error.problems : [];
  const out: Record<string, string> = {};
  for (const p of list) {
    const field = p.field || 'form';
    const text = problemText(i18n, p);
    out[field] = out[field] ? `${out[field]} ${text}` : text;
  }
  return list.length ? out : { form: errorText(error) };
}

export function NumberField(props: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  hint: ReactNode;
  problem?: string | undefined;
  unit?: string;
  inputMode?: 'numeric' | 'decimal' | 'text';
  disabled?: boolean;
}) {
  const input = (
    <input
      id={props.id}
      inputMode={props.inputMode ?? 'decimal'}
      value={props.value}
      disabled={props.disabled}
      onChange={(e) => props.onChange(e.target.value)}
      aria-invalid={props.problem ? true : undefined}
      aria-describedby={`${props.id}-hint`}
    />
  );
  return (
    <div className="pace">
      <label htmlFor={props.id}>{props.label}</label>
      {props.unit ? (
        <span className="with-unit">
          {input}
          <span className="unit">{props.unit}</span>
        </span>
      ) : (
        input
      )}
      <span className="hint" id={`${props.id}-hint`}>
        {props.problem ? <span className="field-error">{props.problem}</span> : props.hint}
      </span>
    </div>
  );
}

export function FormProblem({ problem }: { problem: string | undefined }) {
  return problem ? (
    <p className="callout danger" role="alert">
      {problem}
    </p>
  ) : null;
}

export function SaveRow(props: { label: string; saving?: boolean; saved: boolean; children?: ReactNode }) {
  const { t } = useTranslation('validation');
  return (
    <div className="form-actions">
      {props.children}
      <button type="submit" className="primary" disabled={props.saving}>
        {props.saving ? t('form.saving') : props.label}
      </button>
      {props.saved && (
        <span role="status" className="ok">
          {t('form.saved')}
        </span>
      )}
    </div>
  );
}

/** An on/off switch (a checkbox with the switch role); `children` name it, after the track. */
export function Switch(props: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  /** Why it is disabled (the role signed in, store/access.tsx). */
  title?: string | undefined;
  big?: boolean;
  children: ReactNode;
}) {
  return (
    <label className={props.big ? 'switch big' : 'switch'} title={props.title}>
      <input
        type="checkbox"
        role="switch"
        checked={props.checked}
        aria-checked={props.checked}
        disabled={props.disabled}
        title={props.title}
        onChange={(e) => props.onChange(e.target.checked)}
      />
      <span aria-hidden="true" className="track" />
      {props.children}
    </label>
  );
}

/**
 * A button that runs a call: disabled and saying `busyLabel` while it runs, and the call's failure
 * said under it (until the next try).
 */
export function RunButton(props: { run: () => Promise<unknown>; label: string; busyLabel: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <button
        type="button"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          setError(null);
          props.run().then(
            () => setBusy(false),
            (e: unknown) => {
              setBusy(false);
              setError(errorText(e));
            },
          );
        }}
      >
        {busy ? props.busyLabel : props.label}
      </button>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}
