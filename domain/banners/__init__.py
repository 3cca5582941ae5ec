"""Event banners and notices shown above the header."""
