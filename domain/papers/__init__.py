"""The papers a store owes its customers for a payment: the receipt and refund notes (PDF documents), the cash
receipt (현금영수증) for bank transfers and virtual accounts, and tax-invoice requests (세금계산서)."""
