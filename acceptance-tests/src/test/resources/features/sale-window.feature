Feature: Reservations are taken only while the sale is open and ready
  In order to be fair to everyone who waits for the opening
  As a merchant running a flash sale
  I want requests outside the sale's window, or before its stock is ready, refused with a clear reason

  Scenario: Before the start, buyers are told when the sale opens
    Given a sale that starts in 1 hour, offering:
      | product | units |
      | ticket  | 10    |
    And the sale is ready to sell
    When Alice reserves 1 ticket
    Then Alice is refused because the sale has not started yet, and is told when it starts
    And no ticket has been taken

  Scenario: After the end, the sale is over
    Given a sale that ended 1 minute ago, offering:
      | product | units |
      | ticket  | 10    |
    And the sale is ready to sell
    When Alice reserves 1 ticket
    Then Alice is refused because the sale has ended
    And no ticket has been taken

  # A sale that has started is loaded by the warm-up schedule within moments (see warm-up.feature), so the sale
  # here opens later, beyond the schedule's lead.
  Scenario: A sale whose stock is not loaded yet asks buyers to come back, and names its start once it is
    Given a sale that starts in 1 hour, offering:
      | product | units |
      | ticket  | 10    |
    When Alice reserves 1 ticket
    Then Alice is asked to come back in a moment
    When the sale is ready to sell
    And Alice reserves 1 ticket
    Then Alice is refused because the sale has not started yet, and is told when it starts
    And no ticket has been taken

  Scenario: A sale that does not exist
    Given a sale that has started with a limit of 1 per buyer, offering:
      | product | units |
      | ticket  | 10    |
    When Alice reserves 1 ticket in a sale that does not exist
    Then Alice is told the sale does not exist

  Scenario: A product the sale does not offer
    Given a sale that has started with a limit of 1 per buyer, offering:
      | product | units |
      | ticket  | 10    |
    And the sale is ready to sell
    When Alice reserves 1 umbrella
    Then Alice is refused because the sale offers no umbrella
    And no ticket has been taken
