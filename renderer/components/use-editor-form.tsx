/**
 * What the route and rule editors share: the fields checked with the shared schema before sending,
 * the engine's refusal (400 with field problems) landing on the same fields, the busy state, and the
 * message and aria attributes of each field.
 */
import { type FormEvent, useId, useState } from 'react';
import type { ZodType } from 'zod';
import { InputError } from '../../shared/errors.ts';
import { type Problems, problemsFrom } from '../lib/route-draft.ts';
import { errorText } from '../store/dashboard-store.ts';

export function useEditorForm<F>(options: {
  /** The fields to send, read from the draft at submit. */
  fields: () => F;
  schema: ZodType;
  save: (fields: F) => Promise<unknown>;
  onDone: () => void;
}) {
  const [problems, setProblems] = useState<Problems>({});
  const [saving, setSaving] = useState(false);
  const id = useId();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const fields = options.fields();
    const check = options.schema.safeParse(fields);
    if (!check.success) {
      setProblems(problemsFrom(InputError.fromZod(check.error)) ?? {});
      return;
    }
    setProblems({});
    setSaving(true);
    try {
      await options.save(fields);
      options.onDone();
    } catch (error) {
      setProblems(problemsFrom(error) ?? { form: [errorText(error)] });
    } finally {
      setSaving(false);
    }
  };

  const about = (field: string) => (f: string) => f === field || f.startsWith(`${field}.`);
  /** The messages of a field (and of its sub-fields), once. */
  const err = (field: string) => {
    const messages = Object.entries(problems)
      .filter(([f]) => about(field)(f))
      .flatMap(([, m]) => m);
    return messages.length ? (
      <span className="field-error" id={`${id}-${field}-err`}>
        {messages.join('; ')}
      </span>
    ) : null;
  };
  /** The input's link to its messages, while it has any. */
  const described = (field: string) =>
    Object.keys(problems).some(about(field))
      ? { 'aria-describedby': `${id}-${field}-err`, 'aria-invalid': true }
      : {};

  return { id, problems, saving, submit, err, described };
}
