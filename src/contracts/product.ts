/** The three products; each has its own subscription key, API user, token and account. */
export type ProductName = 'disbursement' | 'collection' | 'remittance';
