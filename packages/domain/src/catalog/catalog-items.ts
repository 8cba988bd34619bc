export interface Product {
  id: string;
  sku: string;
  name: string;
  description: string | null;
  category: string | null;
  brand: string | null;
  priceCents: number;
  currency: string;
  vatRate: number;
  unit: string;
  active: boolean;
  updatedAt: Date;
}

export interface StockItem {
  productId: string;
  sku: string;
  quantity: number;
  updatedAt: Date;
}

export interface ProductImportRow {
  sku: string;
  name: string;
  priceCents: number;
  description?: string | null;
  category?: string | null;
  brand?: string | null;
  currency?: string;
  vatRate?: number;
  unit?: string;
  active?: boolean;
}

/** What an imported product gets for a field it leaves out (its currency defaults to the garage's). */
export const PRODUCT_DEFAULTS = { vatRate: 20, unit: 'piece', active: true } as const;

export interface StockImportRow {
  sku: string;
  quantity: number;
}
