import {
  mfaConfirmSchema,
  mfaEnrolmentSchema,
  mfaProofSchema,
  mfaRegenerateSchema,
  mfaStatusSchema,
  recoveryCodesSchema,
} from '../auth-schemas';
import { defineContract } from './define-contract';

// The signed-in user's own two-factor sign-in (server/modules/mfa/mfa.routes.ts).

export const mfaContract = defineContract({
  'GET /api/auth/mfa': { response: { 200: mfaStatusSchema } },
  'POST /api/auth/mfa/enrol': { response: { 200: mfaEnrolmentSchema } },
  'POST /api/auth/mfa/confirm': { body: mfaConfirmSchema, response: { 200: recoveryCodesSchema } },
  'POST /api/auth/mfa/disable': { body: mfaProofSchema, response: { 200: mfaStatusSchema } },
  'POST /api/auth/mfa/recovery-codes': { body: mfaRegenerateSchema, response: { 200: recoveryCodesSchema } },
});
