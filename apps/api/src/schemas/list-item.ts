import { fieldsOf, type FieldShape, type ItemOf, type ItemShape } from '@garage/domain';
import { Type, type TSchema } from 'typebox';
import { DateTime, Nullable, Uuid } from './common.js';

/** What the API's documentation says of a field beyond its kind: annotations and constraints of the wire format. */
export interface FieldDocs {
  description?: string;
  pattern?: string;
  examples?: unknown[];
  minimum?: number;
  /** For a list of strings: the format of each. */
  format?: string;
  /** For text that is one of a list: the values a response may hold, when fewer than the domain's. */
  shown?: readonly string[];
}

const schemaOf = (field: FieldShape, { format, shown, ...docs }: FieldDocs): TSchema => {
  switch (field.kind) {
    case 'uuid':
      return Uuid(docs);
    case 'text':
      return field.values ? Type.Enum([...(shown ?? field.values)], docs) : Type.String(docs);
    case 'integer':
      return Type.Integer(docs);
    case 'decimal':
      return Type.Number(docs);
    case 'boolean':
      return Type.Boolean(docs);
    case 'time':
      return DateTime(docs);
    case 'texts':
      return Type.Array(Type.String(format === undefined ? {} : { format }), docs);
  }
};

/**
 * The schema of a list item (docs/contributors/adding-a-list-field.md): its properties are the shape's fields, in the
 * shape's order, each of its kind and nullability, documented by `docs`. Lists send the item as the database rendered
 * it from the same shape; the route's serializer writes it from the domain object for items sent one at a time.
 */
export const listItemSchema = <S extends ItemShape>(shape: S, title: string, docs: { [K in keyof S]?: FieldDocs } = {}) => {
  const properties = Object.fromEntries(
    fieldsOf(shape).map(([name, field]) => {
      const schema = schemaOf(field, docs[name] ?? {});
      return [name, field.nullable ? Nullable(schema) : schema];
    }),
  );
  return Type.Unsafe<ItemOf<S>>(Type.Object(properties, { additionalProperties: false, title }));
};
