from journals.integration.values import decimals_of, find_issns, find_year, issn_is_valid, parse_numbers


def test_issn_check_digits():
    assert issn_is_valid("0028-0836") and issn_is_valid("1050-124X") and issn_is_valid("1050124x")
    assert not issn_is_valid("0028-0837") and not issn_is_valid("1050-1240")
    assert find_issns("Print ISSN: 0028-0836 | Online 14764687, phone 1234-5678") == ["0028-0836", "1476-4687"]


def test_numbers_decimal_commas_decided_per_vector():
    assert parse_numbers(["4.117", "3,250", None, "n/a"]) == [(4.117, 3), (3.25, 3), None, None]
    assert parse_numbers(["€2,290", "€1,500"]) == [(2290.0, 0), (1500.0, 0)]
    assert parse_numbers(["12,5"]) == [(12.5, 1)]
    assert parse_numbers(["Journal of X"]) == [None]


def test_years_and_decimals():
    assert find_year(" (2024)") == 2024
    assert find_year("no year 1234") is None
    assert decimals_of(4.1) == 1 and decimals_of(3.0) == 0
