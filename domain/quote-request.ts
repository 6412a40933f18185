import { z } from 'zod';
import { emailField } from './auth-schemas';
import { multiLine, singleLine } from './text-rules';

// The landing page's 'Request a Quote' form, shared by the form and POST /api/public/quote-requests.

const optionalText = (label: string, max: number, message: string, isMultiLine = false) =>
  z
    .string()
    .trim()
    .refine(...(isMultiLine ? multiLine(label) : singleLine(label)))
    .max(max, message)
    .nullish();

export const quoteRequestSchema = z.object({
  name: z.string({ error: 'Name is required' }).trim().refine(...singleLine('Name')).min(1, 'Name is required').max(200, 'Name is too long'),
  company: z
    .string({ error: 'Company is required' })
    .trim()
    .refine(...singleLine('Company'))
    .min(1, 'Company is required')
    .max(200, 'Company name is too long'),
  email: emailField,
  phone: optionalText('Phone', 50, 'Phone number is too long'),
  sites: z
    .number({ error: 'Number of sites must be a whole number' })
    .int('Number of sites must be a whole number')
    .min(1, 'Number of sites must be at least 1')
    .max(10_000, 'Number of sites must be at most 10000')
    .nullish(),
  message: optionalText('Message', 2000, 'Message is too long (2000 characters at most)', true),
});

export type QuoteRequestInput = z.infer<typeof quoteRequestSchema>;
