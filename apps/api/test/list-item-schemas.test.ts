import { fieldsOf, PRODUCT_ITEM, STOCK_ITEM, VEHICLE_ITEM, type FieldShape, type ItemShape } from '@garage/domain';
import t from 'tap';
import { Product, StockItem } from '../src/schemas/product.js';
import { Vehicle } from '../src/schemas/vehicle.js';

type JsonSchema = { type?: string; format?: string; enum?: string[]; anyOf?: JsonSchema[]; items?: JsonSchema; properties?: Record<string, JsonSchema>; required?: string[] };

/** The JSON Schema a field of each kind must have: what the database renders it as. */
const KIND: Record<FieldShape['kind'], (s: JsonSchema, field: FieldShape) => boolean> = {
  uuid: (s) => s.type === 'string' && s.format === 'uuid',
  text: (s, field) => (field.values ? (s.enum ?? []).length > 0 && s.enum!.every((v) => field.values!.includes(v)) : s.type === 'string'),
  integer: (s) => s.type === 'integer',
  decimal: (s) => s.type === 'number',
  boolean: (s) => s.type === 'boolean',
  time: (s) => s.type === 'string' && s.format === 'date-time',
  texts: (s) => s.type === 'array' && s.items?.type === 'string',
};

/** A schema that is `anyOf [schema, null]`, unwrapped; null when it does not allow null. */
const nullableOf = (s: JsonSchema): JsonSchema | null =>
  s.anyOf?.length === 2 && s.anyOf[1]?.type === 'null' ? s.anyOf[0]! : null;

/** Where `schema` says something else than `shape`: one line per disagreement, none when they agree. */
const disagreements = (shape: ItemShape, schema: JsonSchema): string[] => {
  const names = fieldsOf(shape).map(([name]) => name);
  const found: string[] = [];
  if (JSON.stringify(Object.keys(schema.properties ?? {})) !== JSON.stringify(names)) found.push('fields or their order');
  if (JSON.stringify(schema.required) !== JSON.stringify(names)) found.push('required fields');
  for (const [name, field] of fieldsOf(shape)) {
    const property = schema.properties?.[name];
    if (!property) continue;
    const inner = nullableOf(property);
    if ((inner !== null) !== field.nullable) found.push(`${name}: nullability`);
    if (!KIND[field.kind](inner ?? property, field)) found.push(`${name}: not a ${field.kind}`);
  }
  return found;
};

t.test('the API\'s list item schemas say what the domain\'s item shapes define, field by field', async (t) => {
  t.same(disagreements(PRODUCT_ITEM, Product as JsonSchema), []);
  t.same(disagreements(STOCK_ITEM, StockItem as JsonSchema), []);
  t.same(disagreements(VEHICLE_ITEM, Vehicle as JsonSchema), []);
});

t.test('a schema that disagrees with its shape is caught', async (t) => {
  const stock = StockItem as JsonSchema;
  const { quantity, ...rest } = stock.properties!;
  t.same(disagreements(STOCK_ITEM, { ...stock, properties: { ...rest, quantity: { type: 'number' } } }), ['fields or their order', 'quantity: not a integer']);
  t.same(disagreements(STOCK_ITEM, { ...stock, properties: { productId: rest.productId!, sku: rest.sku!, quantity: { anyOf: [quantity!, { type: 'null' }] }, updatedAt: rest.updatedAt! } }), ['quantity: nullability']);
  t.same(disagreements(STOCK_ITEM, { ...stock, required: ['productId'] }), ['required fields']);
});
