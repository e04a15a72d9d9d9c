import { IsDefined, IsEmail, IsIn, IsString, Length, MaxLength } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Messages } from '@pixauto/errors';

const A = Messages.admin;

/** What a console user may do: a viewer reads; a developer acts in the sandbox and reads production; an owner does everything. */
export type ConsoleRole = 'owner' | 'developer' | 'viewer';
export const CONSOLE_ROLES: readonly ConsoleRole[] = ['owner', 'developer', 'viewer'];

/** Passwords a console user may choose: 12 to 128 characters. */
export const CONSOLE_PASSWORD_LENGTH = { min: 12, max: 128 } as const;

@JSONSchema({ description: "A person who signs in to the merchant console on the account's behalf." })
export class CreateConsoleUserRequest {
  @JSONSchema({ description: 'The address the person signs in with; one console user per address.', example: 'ana@loja.example' })
  @IsEmail({}, { message: A.consoleEmail })
  @MaxLength(254, { message: A.consoleEmail })
  @IsDefined({ message: A.consoleEmail })
  email!: string;

  @JSONSchema({ description: 'owner: everything, production included. developer: acts in the sandbox, reads production. viewer: reads only.' })
  @IsIn(CONSOLE_ROLES, { message: A.consoleRole })
  @IsDefined({ message: A.consoleRole })
  role!: ConsoleRole;
}
export const CREATE_CONSOLE_USER_FIELDS = ['email', 'role'] as const;

@JSONSchema({ description: "A console user's new role." })
export class ChangeConsoleUserRequest {
  @JSONSchema({ description: 'owner: everything, production included. developer: acts in the sandbox, reads production. viewer: reads only.' })
  @IsIn(CONSOLE_ROLES, { message: A.consoleRole })
  @IsDefined({ message: A.consoleRole })
  role!: ConsoleRole;
}
export const CHANGE_CONSOLE_USER_FIELDS = ['role'] as const;

@JSONSchema({ description: "A console user's credentials, checked at sign-in." })
export class VerifyConsoleUserRequest {
  @JSONSchema({ description: 'The address the person signs in with.' })
  @IsString({ message: A.consoleEmail })
  @MaxLength(254, { message: A.consoleEmail })
  @IsDefined({ message: A.consoleEmail })
  email!: string;

  @JSONSchema({ description: 'The password.' })
  @IsString({ message: A.consolePassword })
  @MaxLength(CONSOLE_PASSWORD_LENGTH.max, { message: A.consolePassword })
  @IsDefined({ message: A.consolePassword })
  password!: string;
}
export const VERIFY_CONSOLE_USER_FIELDS = ['email', 'password'] as const;

@JSONSchema({ description: "A sign-in link's token, and the password its user chooses with it." })
export class UseSignInLinkRequest {
  @JSONSchema({ description: 'The token of the sign-in link (what follows `#/set-password/` in it).' })
  @IsString({ message: A.consoleSignInToken })
  @Length(1, 128, { message: A.consoleSignInToken })
  @IsDefined({ message: A.consoleSignInToken })
  token!: string;

  @JSONSchema({ description: 'The password the user chooses, 12 to 128 characters.' })
  @IsString({ message: A.consolePassword })
  @Length(CONSOLE_PASSWORD_LENGTH.min, CONSOLE_PASSWORD_LENGTH.max, { message: A.consolePassword })
  @IsDefined({ message: A.consolePassword })
  password!: string;
}
export const USE_SIGN_IN_LINK_FIELDS = ['token', 'password'] as const;

@JSONSchema({ description: "A sign-in link's token, to check without using it." })
export class CheckSignInLinkRequest {
  @JSONSchema({ description: 'The token of the sign-in link (what follows `#/set-password/` in it).' })
  @IsString({ message: A.consoleSignInToken })
  @Length(1, 128, { message: A.consoleSignInToken })
  @IsDefined({ message: A.consoleSignInToken })
  token!: string;
}
export const CHECK_SIGN_IN_LINK_FIELDS = ['token'] as const;

@JSONSchema({ description: "A console user's new password, with the current one." })
export class ChangeConsolePasswordRequest {
  @JSONSchema({ description: 'The password the user signs in with now.' })
  @IsString({ message: A.consoleCurrentPassword })
  @MaxLength(CONSOLE_PASSWORD_LENGTH.max, { message: A.consoleCurrentPassword })
  @IsDefined({ message: A.consoleCurrentPassword })
  current_password!: string;

  @JSONSchema({ description: 'The new password, 12 to 128 characters.' })
  @IsString({ message: A.consoleNewPassword })
  @Length(CONSOLE_PASSWORD_LENGTH.min, CONSOLE_PASSWORD_LENGTH.max, { message: A.consoleNewPassword })
  @IsDefined({ message: A.consoleNewPassword })
  new_password!: string;
}
export const CHANGE_CONSOLE_PASSWORD_FIELDS = ['current_password', 'new_password'] as const;

/** A console user, as the operator and the console server see it. The password is never stored in clear, only a hash. */
export interface ConsoleUserResponse {
  /** Unique identifier of the console user. */
  user_id: string;
  /** The account the user acts for. */
  account_id: string;
  /** The address the user signs in with. */
  email: string;
  /** What the user may do: owner, developer or viewer. */
  role: ConsoleRole;
  /** When the user was created. */
  created_at: string;
  /** When the user last signed in (with their password or a sign-in link); null until the first time. */
  last_signed_in_at: string | null;
}

/** The console users of an account, the oldest first. */
export interface ConsoleUserListResponse {
  /** Every console user of the account. */
  console_users: ConsoleUserResponse[];
}

/** A console user and the one-time link with which they choose a password and sign in. */
export interface ConsoleSignInLinkResponse {
  /** The console user the link is for. */
  user: ConsoleUserResponse;
  /** The link to give the user: it opens the console, where they choose a password. It works once, and only this answer shows it. */
  sign_in_url: string;
  /** When the link stops working, if it has not been used (24 hours after it was made). */
  expires_at: string;
}
