from judge.mail.passwords import check_password, hash_password, new_password


def test_a_password_is_kept_only_as_a_salted_hash_and_checked():
    pw = new_password()
    stored = hash_password(pw)
    assert pw not in stored and stored.startswith("scrypt$")
    assert check_password(pw, stored)
    assert not check_password(pw + "x", stored)
    assert not check_password(pw.upper(), stored)
    assert hash_password(pw) != stored  # a new salt each time


def test_a_damaged_hash_refuses_every_password():
    assert not check_password("anything", "scrypt$broken")
    assert not check_password("anything", "")


def test_passwords_are_ten_characters_easy_to_copy_and_differ():
    pws = {new_password() for _ in range(20)}
    assert len(pws) == 20
    assert all(len(p) == 10 and p.isalnum() and not set(p) & set("01ilo") for p in pws)


def test_the_judge_hashes_with_scrypt_at_its_own_work_factor_and_checks_by_the_stored_one():
    """The suite hashes cheaply (tests/conftest.py); the judge's own factor is scrypt's N = 2**14,
    r = 8, and a hash is checked by the parameters stored in it (a game file written with
    another factor still takes its passwords)."""
    import importlib

    from judge.mail import passwords

    cheap = hash_password("tiger-lily")
    assert cheap.startswith(f"scrypt${2**4}$8$1$")
    importlib.reload(passwords)  # the module as the judge runs it (the fixture's N is put back after the test)
    assert (passwords.N, passwords.R, passwords.P) == (2**14, 8, 1)
    real = hash_password("tiger-lily")
    assert real.startswith("scrypt$16384$8$1$")
    assert check_password("tiger-lily", real) and check_password("tiger-lily", cheap)
    assert not check_password("tiger-lilx", real)
