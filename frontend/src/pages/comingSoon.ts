import type { ComingSoonInfo } from './ComingSoonPage';

/**
 * What a page shows when its list route answers 404 (a server without that area): every
 * page has its back end now, so this is only seen against an older or partial server.
 */
export const COMING_SOON = {
  'command-center': {
    title: 'Command Center',
    description: 'A live view of everything that needs attention today.',
    features: [
      'See overdue orders, blocked work and low stock in one place',
      'Jump straight to the order, work order or item that needs you',
      'Follow printer status and the production queue as it changes',
    ],
  },
  orders: {
    title: 'Orders',
    description: 'Sales orders from every channel, from confirmation to shipment.',
    features: [
      'Filter by status, fulfillment state and source; sort by priority, date or customer',
      'Confirm orders and generate the production orders they need',
      'Record payments, print packing details and ship with tracking numbers',
    ],
  },
  quotes: {
    title: 'Quotes',
    description: 'Prepare quotes, send them for approval and convert them into orders.',
    features: [
      'Create quotes with prices, tax and shipping; set how long they are valid',
      'Approve, reject or accept quotes and track which ones expire',
      'Convert an accepted quote into a sales order in one step',
    ],
  },
  payments: {
    title: 'Payments',
    description: 'Money received and refunded against sales orders.',
    features: [
      'Record payments by cash, check, card, PayPal, Venmo, Zelle or wire',
      'Issue refunds and void mistakes, with the order balance kept up to date',
      'See totals for today, this week and this month, and what is still outstanding',
    ],
  },
  customers: {
    title: 'Customers',
    description: 'The people and companies you sell to.',
    features: [
      'Search customers by name, email, company or phone',
      'See each customer’s orders, quotes and total spent',
      'Import customers from a CSV file',
    ],
  },
  bom: {
    title: 'Bill of Materials',
    description: 'What each product is made of, and what it costs to make.',
    features: [
      'List components, materials and packaging with quantities and scrap factors',
      'Roll up material and process costs automatically',
      'See where a component is used and copy BOMs between products',
    ],
  },
  purchasing: {
    title: 'Purchasing',
    description: 'Purchase orders and the vendors you buy from.',
    features: [
      'Raise purchase orders from low stock in a few clicks',
      'Track orders from placed to shipped to received',
      'Receive goods into inventory, create spools and material lots',
    ],
  },
  manufacturing: {
    title: 'Manufacturing',
    description: 'Work centers, routings and the resources that do the work.',
    features: [
      'Define work centers and the machines in them',
      'Build routings with setup and run times per operation',
      'Plan capacity against the production schedule',
    ],
  },
  production: {
    title: 'Production',
    description: 'Work orders from draft to complete, operation by operation.',
    features: [
      'Filter by status: draft, released, scheduled, in progress, complete',
      'Release, start, split, hold and complete work orders',
      'Record scrap with a reason and create remakes automatically',
    ],
  },
  shipping: {
    title: 'Shipping',
    description: 'Orders ready to go out, and everything already shipped.',
    features: [
      'See which orders are ready to ship and which are blocked',
      'Create shipments with carrier, service and tracking number',
      'Consume packaging and post the cost of goods automatically',
    ],
  },
  'inventory-transactions': {
    title: 'Inventory Transactions',
    description: 'The ledger of every stock movement.',
    features: [
      'Filter receipts, issues, transfers, adjustments, consumption and scrap',
      'Record a movement with its cost, lot and serial number',
      'Trace each movement back to its order or work order',
    ],
  },
  'cycle-count': {
    title: 'Cycle Count',
    description: 'Count what is on the shelf and reconcile it with the books.',
    features: [
      'List stock by location with the last count date',
      'Enter counted quantities with a reason for each difference',
      'Post adjustments and their accounting entries in one batch',
    ],
  },
  users: {
    title: 'Team Members',
    description: 'The administrators and operators who use Strata.',
    features: [
      'Invite team members as administrators or operators',
      'Change roles, deactivate and reactivate accounts',
      'Reset a team member’s password',
    ],
  },
  locations: {
    title: 'Locations',
    description: 'Warehouses, shelves and bins where stock is kept.',
    features: ['Create a hierarchy of warehouses, shelves and bins', 'Deactivate locations you no longer use'],
  },
  accounting: {
    title: 'Accounting',
    description: 'The general ledger behind inventory, sales and purchasing.',
    features: [
      'Trial balance as of any date',
      'Inventory valuation and the journal entries posted automatically',
      'Close and reopen fiscal periods',
    ],
  },
  printers: {
    title: 'Printers',
    description: 'Your print farm: every printer, its status and what it is doing.',
    features: ['Add printers by brand and connection', 'See which printers are idle, printing or need maintenance'],
  },
  'scrap-reasons': {
    title: 'Scrap Reasons',
    description: 'The reasons operators choose when they scrap a part.',
    features: ['Add, rename and reorder reasons', 'Deactivate reasons you no longer use'],
  },
  spools: {
    title: 'Material Spools',
    description: 'Every spool of filament, how much is left and where it is.',
    features: [
      'Track the remaining weight of each spool',
      'Find low and empty spools at a glance',
      'See which work orders consumed each spool',
    ],
  },
  settings: {
    title: 'Settings',
    description: 'Your company details, tax and business hours.',
    features: ['Company name, address and logo', 'Tax rate and quote terms', 'Time zone and business hours'],
  },
  security: {
    title: 'Security Audit',
    description: 'Sign-ins, password resets and other security events.',
    features: [
      'See every sign-in, failed attempt and password reset',
      'Filter by event type, user and date',
      'Follow an event to the request that caused it',
    ],
  },
} satisfies Record<string, ComingSoonInfo>;
