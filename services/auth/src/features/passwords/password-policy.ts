import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@crawl/contracts';

/** Passwords seen so often in breaches that accepting them would be negligent. */
const COMMON = new Set([
  'password',
  'password1',
  'password123',
  '12345678',
  '123456789',
  '1234567890',
  'qwertyui',
  'qwerty123',
  'iloveyou',
  'sunshine1',
  'abc12345',
  'letmein1',
  'football',
  'baseball',
  'welcome1',
  'admin123',
  '11111111',
  '00000000',
  'passw0rd',
  'changeme',
]);

/**
 * The documented policy: 8–256 characters, not only whitespace, not the email (or its local part),
 * not one of the most common breached passwords. Length beats composition rules (NIST 800-63B).
 */
export function passwordProblems(password: string, email: string): string[] {
  const problems: string[] = [];
  if (password.length < PASSWORD_MIN_LENGTH) problems.push(`password must be at least ${PASSWORD_MIN_LENGTH} characters long`);
  if (password.length > PASSWORD_MAX_LENGTH) problems.push(`password must be at most ${PASSWORD_MAX_LENGTH} characters long`);
  if (password.trim().length === 0) problems.push('password must not be only whitespace');
  const lowered = password.toLowerCase();
  const localPart = email.split('@')[0] ?? '';
  if (lowered === email.toLowerCase() || (localPart.length >= 4 && lowered === localPart.toLowerCase()))
    problems.push('password must not be your email address');
  if (COMMON.has(lowered)) problems.push('password is too common');
  return problems;
}
