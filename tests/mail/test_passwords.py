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
