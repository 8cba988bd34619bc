import { isContractDate, isContractDateTime, isUuid } from '@garage/domain';
import { Format } from 'typebox/format';

/**
 * The `date` and `date-time` formats as the contract reads them (docs/reference/contract.md §1), stricter than TypeBox's defaults,
 * which follow RFC 9557 and accept what neither the domain nor the database can hold: leap seconds (`23:59:60`),
 * bracketed suffixes (`[Europe/Paris]`) and year 0000. Every time input of the API is declared with these formats,
 * so each of those gets 400 VALIDATION_FAILED before a handler runs. The rules are the domain's, which reads the same
 * texts: a schema never accepts a time the domain would call malformed, nor refuses one it takes.
 */
Format.Set('date', isContractDate);
Format.Set('date-time', isContractDateTime);
// Ids: the domain's one UUID rule, so that a schema never accepts an id the domain would call malformed (or refuses one it takes).
Format.Set('uuid', isUuid);
