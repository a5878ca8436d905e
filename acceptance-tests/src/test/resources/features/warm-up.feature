Feature: A sale is loaded by itself shortly before it opens
  In order to open every sale on time without anyone at the keyboard
  As the operator of the service
  I want each sale loaded into the fast store automatically a little before it starts, and buyers who come earlier asked to come back

  Scenario: A sale nobody loads by hand is ready when it opens
    Given a sale that starts in 5 seconds, offering:
      | product | units |
      | ticket  | 10    |
    When Alice reserves 1 ticket
    Then Alice is asked to come back in a moment
    And the sale is loaded by itself, at most 3 seconds before it opens
    When Alice reserves 1 ticket
    Then Alice is refused because the sale has not started yet, and is told when it starts
    When the sale opens
    And Alice reserves 1 ticket
    Then the reservation is accepted
    And 9 tickets are still available
