import type { ItemType, ProcurementType } from '../../api/model';
import type { Option } from '../../components/Field';

/** Every item type the API knows (checked against the generated schema). */
export const ITEM_TYPE_VALUES = [
  'finished_good',
  'component',
  'material',
  'consumable',
  'supply',
  'service',
  'packaging',
] as const satisfies readonly ItemType[];

/** The item types, labelled. */
export const ITEM_TYPES: (Option & { value: ItemType })[] = [
  { value: 'finished_good', label: 'Finished good' },
  { value: 'component', label: 'Component' },
  { value: 'material', label: 'Material' },
  { value: 'consumable', label: 'Consumable' },
  { value: 'supply', label: 'Supply' },
  { value: 'service', label: 'Service' },
  { value: 'packaging', label: 'Packaging' },
];

/** Spec 2.4 allows finished_good, component, material, consumable for new items. */
export const ITEM_TYPES_FOR_FORM = ITEM_TYPES.filter((t) =>
  ['finished_good', 'component', 'material', 'consumable'].includes(t.value),
);

export const PROCUREMENT_TYPES: (Option & { value: ProcurementType })[] = [
  { value: 'make', label: 'Make' },
  { value: 'buy', label: 'Buy' },
];

/** UOM codes of CONTRACT 6.6. */
export const UNITS: Option[] = [
  { value: 'EA', label: 'EA · each' },
  { value: 'G', label: 'G · gram' },
  { value: 'KG', label: 'KG · kilogram' },
  { value: 'LB', label: 'LB · pound' },
  { value: 'OZ', label: 'OZ · ounce' },
  { value: 'M', label: 'M · metre' },
  { value: 'MM', label: 'MM · millimetre' },
  { value: 'CM', label: 'CM · centimetre' },
  { value: 'IN', label: 'IN · inch' },
  { value: 'FT', label: 'FT · foot' },
  { value: 'L', label: 'L · litre' },
  { value: 'ML', label: 'ML · millilitre' },
  { value: 'PK', label: 'PK · pack' },
  { value: 'BOX', label: 'BOX · box' },
  { value: 'ROLL', label: 'ROLL · roll' },
  { value: 'HR', label: 'HR · hour' },
];

export function itemTypeLabel(value: string | null | undefined): string {
  return ITEM_TYPES.find((t) => t.value === value)?.label ?? (value ? value.replace(/_/g, ' ') : '—');
}

export const ITEM_TYPE_TONE: Record<string, 'info' | 'success' | 'warning' | 'neutral'> = {
  finished_good: 'success',
  component: 'info',
  material: 'warning',
};

export function isItemType(value: string | null | undefined): value is ItemType {
  return ITEM_TYPES.some((t) => t.value === value);
}

export function isProcurementType(value: string | null | undefined): value is ProcurementType {
  return value === 'make' || value === 'buy' || value === 'make_or_buy';
}
