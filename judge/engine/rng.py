"""The seeded random generator. Its whole state is (seed, draws) and, for games made since the
judge keys its generator, a secret key: numbers in the game file's [rng].

Draw number k is a hash of (seed, k), keyed by the key when there is one, so a game can be
resumed at any point without replaying earlier draws, and the file diffs as one changed
number. The key (128 random bits, beside the 48-bit seed the judge draws) makes the draws
impossible to search for from what the players see; games made before it have none and draw
exactly as they did.
"""
try:
    from _blake2 import blake2b  # what hashlib.blake2b is, without loading OpenSSL (8 ms)
except ImportError:  # pragma: no cover - another Python
    from hashlib import blake2b

_SPAN = 1 << 64
KEY_HEX = 32  # hex digits of a key: 128 bits


class Rng:
    __slots__ = ("seed", "draws", "key", "_key")

    def __init__(self, seed: int, draws: int = 0, key: str = ""):
        self.seed = seed
        self.draws = draws
        self.key = key  # "" for a generator without a key (games made before keys, --seed N)
        self._key = bytes.fromhex(key)

    def at(self, draws: int) -> "Rng":
        """The same generator at draw number `draws` (an independent copy)."""
        return Rng(self.seed, draws, self.key)

    def _next64(self) -> int:
        if self._key:  # BLAKE2b's own keyed mode (one more block hashed a draw: about 0.4 us)
            digest = blake2b(b"%d:%d" % (self.seed, self.draws), digest_size=8, key=self._key).digest()
        else:
            digest = blake2b(b"%d:%d" % (self.seed, self.draws), digest_size=8).digest()
        self.draws += 1
        return int.from_bytes(digest, "big")

    def digest(self, data: bytes, size: int) -> bytes:
        """A BLAKE2b digest of `data`, `size` bytes, keyed by this generator's key (none: not
        keyed): the seed of a generator drawn from this one (a bot's, judge/engine/bots.py)."""
        if self._key:
            return blake2b(data, digest_size=size, key=self._key).digest()
        return blake2b(data, digest_size=size).digest()

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = _SPAN - _SPAN % n
        while True:
            x = self._next64()
            if x < limit:
                return x % n

    def die(self) -> int:
        return self.below(6) + 1

    def choice(self, items):
        return items[self.below(len(items))]

    def shuffle(self, items: list) -> None:
        """Fisher-Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def to_dict(self) -> dict:
        return {"seed": self.seed, "draws": self.draws, **({"key": self.key} if self.key else {})}
