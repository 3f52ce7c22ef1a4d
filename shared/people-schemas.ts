/** The people API's inputs, validated (zod: kept out of the dashboard's boot chunk, see people.ts). */
import { z } from 'zod';
import { BOOTSTRAP_NAME, PERSON_NAME_PATTERN, ROLES } from './people.ts';

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
