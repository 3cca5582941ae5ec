"""What can be bought: products, editions and purchasable licences with their prices."""
