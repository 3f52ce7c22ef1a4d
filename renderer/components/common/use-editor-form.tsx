/**
 * What the route and rule editors share: the fields checked with the shared schema before sending,
 * the engine's refusal (400 with field problems) landing on the same fields, the busy state, and the
 * message and aria attributes of each field. Problems are kept as {field, code, params} and said in
 * the language shown when rendered, each once.
 */
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ZodType } from 'zod';
import { inputProblems } from '../../../shared/errors.ts';
import { type DurationUnit, type FieldProblem, problemText } from '../../../shared/validation.ts';
import { errorText } from '../../lib/errors.ts';
import { type Problems, problemsFrom } from '../../lib/route-draft.ts';

/** The problems of a list, by field ('form' for those of no field). */
export function byField(list: readonly FieldProblem[]): Problems {
  const out: Problems = {};
  for (const p of list) {
    const field = p.field || 'form';
    out[field] = [...(out[field] ?? []), p];
  }
  return out;
}

/** Each problem once (the same field and code, or the same text). */
export function distinct(list: readonly FieldProblem[]): FieldProblem[] {
  const seen = new Set<string>();
  return list.filter((p) => {
    const key = `${p.field}|${p.code ?? p.message}|${JSON.stringify(p.params ?? {})}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function useEditorForm<F>(options: {
  /** The fields to send, read from the draft at submit. */
  fields: () => F;
  schema: ZodType;
  /** Problems found before the schema (a grace period that is not a number). */
  precheck?: () => FieldProblem[];
  /** The unit a duration field is shown in (the grace period in hours). */
  units?: Readonly<Record<string, DurationUnit>>;
  save: (fields: F) => Promise<unknown>;
  onDone: () => void;
}) {
  const { i18n } = useTranslation('validation');
  const [problems, setProblems] = useState<Problems>({});
  const [saving, setSaving] = useState(false);
  const id = useId();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const early = options.precheck?.() ?? [];
    const fields = options.fields();
    const found = [...early, ...inputProblems(options.schema, fields)];
    // A field with its own problem is not checked twice (a grace period not a number is not too short).
    const shown = found.filter((p, i) => i < early.length || !early.some((e2) => e2.field === p.field));
    if (shown.length) {
      setProblems(byField(shown));
      return;
    }
    setProblems({});
    setSaving(true);
    try {
      await options.save(fields);
      options.onDone();
    } catch (error) {
      setProblems(problemsFrom(error) ?? { form: [{ field: '', message: errorText(error) }] });
    } finally {
      setSaving(false);
    }
  };

  const text = (p: FieldProblem) => problemText(i18n, p, { units: options.units ?? {} });
  const about = (field: string) => (f: string) => f === field || f.startsWith(`${field}.`);
  /** The messages of a field (and of its sub-fields), each once, in the language shown. */
  const messages = (field: string) =>
    distinct(
      Object.entries(problems)
        .filter(([f]) => about(field)(f))
        .flatMap(([, list]) => list),
    ).map(text);
  const err = (field: string) => {
    const list = messages(field);
    return list.length ? (
      <span className="field-error" id={`${id}-${field}-err`}>
        {list.join(' ')}
      </span>
    ) : null;
  };
  /** The input's link to its messages, while it has any. */
  const described = (field: string) =>
    Object.keys(problems).some(about(field))
      ? { 'aria-describedby': `${id}-${field}-err`, 'aria-invalid': true }
      : {};

  return { id, problems, saving, submit, err, described, text };
}
