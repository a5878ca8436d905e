Feature: Sending the same request again does not buy twice
  In order to retry safely when my connection drops
  As a buyer
  I want a repeated request to give me my original reservation without taking more stock

  Background:
    Given a sale that has started with a limit of 2 per buyer, offering:
      | product | units |
      | ticket  | 10    |
    And the sale is ready to sell

  Scenario: Repeating a request returns the same reservation, even at the limit
    When Alice reserves 2 tickets with request id "order-1"
    And Alice sends the same request again
    Then both answers name the same reservation
    And 8 tickets are still available
    And Alice sees that reservation as held
    And Bob cannot see that reservation

  Scenario: The idempotency key works the same way as the request id
    When Alice reserves 2 tickets with idempotency key "retry-7"
    And Alice sends the same request again
    Then both answers name the same reservation
    And 8 tickets are still available

  Scenario: Repeating a request after the sale sold out still returns the reservation
    When Alice reserves 2 tickets with idempotency key "retry-8"
    And Bob reserves 2 tickets
    And Carol reserves 2 tickets
    And Dave reserves 2 tickets
    And Erin reserves 2 tickets
    And Frank reserves 1 ticket with idempotency key "too-late"
    Then Frank is refused because tickets are sold out
    When Alice sends the same request again
    Then Alice's two answers name the same reservation
    And 0 tickets are still available

  Scenario: Another buyer using the same request id gets a reservation of their own
    When Alice reserves 2 tickets with request id "order-1"
    And Bob reserves 2 tickets with request id "order-1"
    Then the two answers name different reservations
    And 6 tickets are still available

  Scenario: Many copies of one request arriving at once still take stock once
    When Alice sends 20 identical requests for 1 ticket with request id "burst" at the same moment
    Then all 20 answers name the same reservation
    And 9 tickets are still available

  Scenario: After the fast store forgot which requests it answered, a repeated request never becomes a second order
    When Alice reserves 1 ticket with request id "order-1"
    And within 30 seconds every accepted reservation is settled in the shop's books
    And the fast store forgets which requests it has answered
    And Alice sends the same request again
    Then within 30 seconds Alice's repeated request shows her one order of it, the only one the shop's books keep
    And 9 tickets are still available
