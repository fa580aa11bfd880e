"""What the mjai tests share: random hands of every family, checked at every decision."""
