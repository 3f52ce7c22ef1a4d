/** The people API's inputs, validated (zod: kept out of the dashboard's boot chunk, see people.ts). */
import { z } from 'zod';
import { instant, int } from './history.ts';
import { AUDIT_LIMIT_MAX, AUDIT_WHATS, BOOTSTRAP_NAME, PERSON_NAME_PATTERN, ROLES, VIAS } from './people.ts';
import { says } from './validation.ts';

export const tokenNameSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(PERSON_NAME_PATTERN, 'a name is 1 to 63 lowercase letters, digits, dots, dashes or underscores')
  .refine((n) => n !== BOOTSTRAP_NAME, `'${BOOTSTRAP_NAME}' is the bootstrap token's name`);

export const tokenCreateSchema = z
  .object({
    name: tokenNameSchema,
    role: z.enum(ROLES),
    /** Epoch ms; null or absent: no expiry. */
    expiresAt: z.number().int().positive().nullable().optional(),
  })
  .strict();

/**
 * GET /api/audit's query string (each value a string, as URLSearchParams gives it): what, by, target,
 * via, from, to (epoch ms or ISO 8601 with offset, as the history's), before (the cursor) and limit.
 * An unknown parameter or a wrong value is refused with what is wrong, never ignored (a filter
 * silently dropped would show entries it excludes).
 */
export const auditQuerySchema = z
  .object({
    what: z.enum(AUDIT_WHATS).optional(),
    by: z.string().trim().toLowerCase().regex(PERSON_NAME_PATTERN, says('personName')).optional(),
    target: z.string().trim().min(1).max(200).optional(),
    via: z.enum(VIAS).optional(),
    from: instant.optional(),
    to: instant.optional(),
    before: int(1, Number.MAX_SAFE_INTEGER).optional(),
    limit: int(1, AUDIT_LIMIT_MAX).optional(),
  })
  .strict()
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, {
    message: says('rangeReversed'),
    path: ['from'],
  });
