import { registerDecorator, ValidationArguments, ValidationOptions } from 'class-validator';

export type Check = (value: unknown, args: ValidationArguments) => boolean;

/** A class-validator decorator from a predicate: the one way the DTOs add a field rule of their own. */
export function rule(name: string, check: Check) {
  return (options: ValidationOptions) => (target: object, propertyName: string) =>
    registerDecorator({ name, target: target.constructor, propertyName, options, validator: { validate: check } });
}
