Feature: A sale is loaded by itself shortly before it opens
  In order to open every sale on time without anyone at the keyboard
  As the operator of the service
  I want each sale loaded into the fast store automatically a little before it starts, and buyers who come earlier asked to come back

  Scenario: A sale nobody loads by hand is ready when it opens
    Given a sale that starts in 1 hour, offering:
      | product | units |
      | ticket  | 10    |
    When Alice reserves 1 ticket
    Then Alice is asked to come back in a moment
    When the opening is 33 seconds away
    Then the sale is loaded by itself, at most 32 seconds before it opens
    When Alice reserves 1 ticket
    Then Alice is refused because the sale has not started yet, and is told when it starts
    When the sale opens
    And Alice reserves 1 ticket
    Then the reservation is accepted
    And 9 tickets are still available
