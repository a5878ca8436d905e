Feature: Each buyer may hold only so many units
  In order to share a scarce product among many people
  As a merchant running a flash sale
  I want each buyer to hold no more than the limit, counted over all of their requests

  Background:
    Given a sale that has started with a limit of 3 per buyer, offering:
      | product | units | limit per buyer |
      | sneaker | 50    |                 |
      | cap     | 50    | 1               |
    And the sale is ready to sell

  Scenario: A buyer collects up to the limit over several requests and no further
    When Alice reserves 1 sneaker
    Then the reservation is accepted
    When Alice reserves 2 sneakers
    Then the reservation is accepted
    When Alice reserves 1 sneaker
    Then Alice is refused as over the limit of 3 sneakers, already holding 3
    And 47 sneakers are still available

  Scenario: Asking for more than the limit at once gets nothing at all
    When Alice reserves 4 sneakers
    Then Alice is refused as over the limit of 3 sneakers, already holding 0
    And no sneaker has been taken

  Scenario: One buyer reaching the limit does not hold back another
    Given Alice holds 3 sneakers
    When Bob reserves 3 sneakers
    Then the reservation is accepted
    And 44 sneakers are still available

  Scenario: A product with a limit of its own overrides the sale's limit
    When Alice reserves 1 cap
    Then the reservation is accepted
    When Alice reserves 1 cap
    Then Alice is refused as over the limit of 1 cap, already holding 1
    And 49 caps are still available
