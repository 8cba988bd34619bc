/**
 * The shape of an item a list hands out: its fields, in order, each with the kind of value it holds and whether it may
 * be null. It is the one definition of a list item (docs/contributors/adding-a-list-field.md): the domain type is
 * derived from it here, the Postgres adapter maps and renders rows from it, and the API derives the item's schema from
 * it. Kinds name values, not storage: `decimal` is a number that may have a fraction, `time` an instant.
 */
export type FieldKind = 'uuid' | 'text' | 'integer' | 'decimal' | 'boolean' | 'time' | 'texts';

export interface FieldShape<K extends FieldKind = FieldKind, N extends boolean = boolean, V extends string = string> {
  readonly kind: K;
  readonly nullable: N;
  /** For `text`: the values it may take, when it is one of a list. */
  readonly values?: readonly V[];
}

export type ItemShape = Readonly<Record<string, FieldShape>>;

interface KindValues {
  uuid: string;
  text: string;
  integer: number;
  decimal: number;
  boolean: boolean;
  time: Date;
  texts: string[];
}

type ValueOf<F> =
  F extends FieldShape<infer K, infer N, infer V>
    ? (K extends 'text' ? (string extends V ? string : V) : KindValues[K]) | (N extends true ? null : never)
    : never;

/** The object an item of `S` is in the domain, keys in the shape's order. */
export type ItemOf<S extends ItemShape> = { -readonly [K in keyof S]: ValueOf<S[K]> };

const of = <K extends FieldKind>(kind: K) => (): FieldShape<K, false, never> => ({ kind, nullable: false });

export const field = {
  uuid: of('uuid'),
  text: (): FieldShape<'text', false> => ({ kind: 'text', nullable: false }),
  /** Text that is one of `values`. */
  oneOf: <V extends string>(values: readonly V[]): FieldShape<'text', false, V> => ({ kind: 'text', nullable: false, values }),
  integer: of('integer'),
  decimal: of('decimal'),
  boolean: of('boolean'),
  time: of('time'),
  texts: of('texts'),
  nullable: <K extends FieldKind, V extends string>(shape: FieldShape<K, false, V>): FieldShape<K, true, V> => ({ ...shape, nullable: true }),
};

/** Names its fields' order once, so that every reader of the shape walks them alike. */
export const fieldsOf = <S extends ItemShape>(shape: S): [keyof S & string, FieldShape][] =>
  Object.entries(shape) as [keyof S & string, FieldShape][];
