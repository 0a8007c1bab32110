import { z } from 'zod';

/**
 * POST /api/contact-lead. The specification leaves the required fields open; we require what the team
 * needs to answer a lead: `name` and a valid `email`. `phone` and `project_name` are optional (absent,
 * null or blank all mean "not given"); a phone, when given, must look like one. Text is trimmed, and
 * control characters (line breaks included) are refused: these values go into the notification
 * e-mail's headers and body. Unknown keys are ignored. Each message completes "<field>: ...".
 */

const text = z.string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') });

const singleLine = (max: number) =>
  text
    .trim()
    .max(max, `must be at most ${max} characters`)
    .refine((value) => !/\p{Cc}/u.test(value), 'must be a single line without control characters');

/** Absent, null or blank: not given (null). */
const optional = (schema: z.ZodType<string, string>) =>
  z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? null : value), schema.nullable().optional()).transform((value) => value ?? null);

/** Digits with the usual separators, an optional leading `+`, and 6 to 15 digits (the E.164 maximum). */
const isPlausiblePhone = (phone: string): boolean => /^\+?[0-9 ().\-/]+$/.test(phone) && /^(?:\D*\d){6,15}\D*$/.test(phone);

export const contactLeadBody = z.object(
  {
    name: singleLine(200).min(1, 'is required'),
    email: text
      .trim()
      .pipe(z.email('must be a valid e-mail address').max(254, 'must be at most 254 characters'))
      // What the pipe checks, for the OpenAPI document (which prints the text before it).
      .meta({ maxLength: 254, pattern: z.regexes.email.source }),
    phone: optional(singleLine(32).refine(isPlausiblePhone, 'must be a phone number: digits, spaces and + . - ( ) /, 6 to 15 digits')),
    project_name: optional(singleLine(500)),
  },
  { error: () => 'must be a JSON object' },
);
export type ContactLeadBody = z.infer<typeof contactLeadBody>;
