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

export interface StockImportRow {
  sku: string;
  quantity: number;
}
