"""Game kits that live in the tests, outside the product (CORRAL_EXTRA_KITS names them)."""
