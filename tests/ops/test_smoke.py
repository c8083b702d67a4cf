"""The app starts on each database and answers the common resources."""


def test_currencies_answer_an_empty_list_on_an_empty_database(client):
    response = client.get("/currencies")
    assert response.status_code == 200
    assert response.get_json() == []
