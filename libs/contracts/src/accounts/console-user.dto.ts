import { IsDefined, IsEmail, IsIn, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Messages } from '@pixauto/errors';

const A = Messages.admin;

/** What a console user may do: a viewer reads; a developer acts in the sandbox and reads production; an owner does everything. */
export type ConsoleRole = 'owner' | 'developer' | 'viewer';
export const CONSOLE_ROLES: readonly ConsoleRole[] = ['owner', 'developer', 'viewer'];

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

  @JSONSchema({ description: 'The sign-in password, 12 to 128 characters. Absent: one is generated and answered once, in `password`.' })
  @IsOptional()
  @IsString({ message: A.consolePassword })
  @Length(12, 128, { message: A.consolePassword })
  password?: string;
}
export const CREATE_CONSOLE_USER_FIELDS = ['email', 'role', 'password'] as const;

@JSONSchema({ description: "A console user's credentials, checked at sign-in." })
export class VerifyConsoleUserRequest {
  @JSONSchema({ description: 'The address the person signs in with.' })
  @IsString({ message: A.consoleEmail })
  @MaxLength(254, { message: A.consoleEmail })
  @IsDefined({ message: A.consoleEmail })
  email!: string;

  @JSONSchema({ description: 'The password.' })
  @IsString({ message: A.consolePassword })
  @MaxLength(128, { message: A.consolePassword })
  @IsDefined({ message: A.consolePassword })
  password!: string;
}
export const VERIFY_CONSOLE_USER_FIELDS = ['email', 'password'] as const;

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
  /** Only when the user was just created without a password: the generated one, shown this once. */
  password?: string;
}
