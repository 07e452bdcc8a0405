import { Type, type Static } from '@sinclair/typebox';
import { DataEnvelope } from './common.ts';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

export const Email = Type.String({ format: 'email', minLength: 3, maxLength: 254 });
export const Password = Type.String({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH });

export const RegisterBody = Type.Object(
  {
    email: Email,
    password: Password,
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })),
    referralCode: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  },
  { additionalProperties: false },
);
export type RegisterBody = Static<typeof RegisterBody>;

/** Login accepts any string password: length rules apply at registration, and a wrong one is just wrong. */
export const LoginBody = Type.Object(
  {
    email: Type.String({ minLength: 1, maxLength: 254 }),
    password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH }),
  },
  { additionalProperties: false },
);
export type LoginBody = Static<typeof LoginBody>;

export const VerifyHandoffBody = Type.Object(
  {
    handoffToken: Type.String({ minLength: 1, maxLength: 4096 }),
    audience: Type.Optional(
      Type.Union([Type.Literal('api'), Type.Literal('dashboard')], {
        description: 'Which token to issue: a normal access token (default) or a dashboard token.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type VerifyHandoffBody = Static<typeof VerifyHandoffBody>;

export const AuthUser = Type.Object({
  id: Type.String(),
  email: Type.String(),
  name: Type.String(),
});
export type AuthUser = Static<typeof AuthUser>;

const SessionFields = {
  accessToken: Type.String(),
  tokenType: Type.Literal('Bearer'),
  expiresIn: Type.Integer({ description: 'Seconds until the access token expires.' }),
  user: AuthUser,
};
const Session = Type.Object(SessionFields);
export type Session = Static<typeof Session>;

/** Both documented shapes at once: the fields at top level and the same fields under `data`. */
export const SessionResponse = Type.Object({ ...SessionFields, data: Session }, { $id: 'SessionResponse' });
export type SessionResponse = Static<typeof SessionResponse>;

const HandoffFields = {
  handoffToken: Type.String(),
  expiresIn: Type.Integer({ description: 'Seconds until the handoff token expires (300).' }),
  user: AuthUser,
};
export const HandoffResponse = Type.Object({ ...HandoffFields, data: Type.Object(HandoffFields) }, { $id: 'HandoffResponse' });
export type HandoffResponse = Static<typeof HandoffResponse>;

export const MeResponse = DataEnvelope(
  Type.Object({
    user: AuthUser,
    organizationId: Type.String(),
    role: Type.String(),
  }),
);
