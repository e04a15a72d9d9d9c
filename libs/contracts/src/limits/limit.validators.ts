import { ValidationOptions } from 'class-validator';
import { rule } from '../field-rule';
import { hasAtMostTwoDecimals } from '@pixauto/pix';
import { LIMIT_MECHANISMS, LimitMechanism } from './limit.types';

export const IsPositiveReais = rule('isPositiveReais', (value) => typeof value === 'number' && Number.isFinite(value) && value > 0);

/** Reais with centavos at most: 10.555 cannot be charged. (Too large an amount is each field's @Max, with its own message.) */
export const HasAtMostTwoDecimals = rule('hasAtMostTwoDecimals', (value) => typeof value === 'number' && hasAtMostTwoDecimals(value));

/** amount belongs to the amount mechanism, quantity to the quantity one; an unknown mechanism is reported on its own. */
export const OnlyWithMechanism = (mechanism: LimitMechanism, options: ValidationOptions) =>
  rule('onlyWithMechanism', (_value, args) => {
    const sent = (args.object as { mechanism?: unknown }).mechanism;
    return sent === mechanism || !LIMIT_MECHANISMS.includes(sent as LimitMechanism);
  })(options);
