Feature: An operator can pause, resume and extend a sale
  In order to handle an emergency, or a crowd that is still buying when the sale should end
  As an operator running a flash sale
  I want to pause the sale and resume it, and to move its end, with buyers told plainly what is going on

  Scenario: While the sale is paused, buyers are told so and nothing is taken
    Given a sale that has started with a limit of 1 per buyer, offering:
      | product | units |
      | ticket  | 10    |
    And the sale is ready to sell
    When the operator pauses the sale
    And Alice reserves 1 ticket
    Then Alice is refused because the sale is paused
    And no ticket has been taken

  Scenario: Once resumed, the sale sells again
    Given a sale that has started with a limit of 1 per buyer, offering:
      | product | units |
      | ticket  | 10    |
    And the sale is ready to sell
    When the operator pauses the sale
    And the operator resumes the sale
    And Alice reserves 1 ticket
    Then the reservation is accepted and holds 1 ticket

  Scenario: A buyer whose reservation was taken before the pause gets it back when asking again
    Given a sale that has started with a limit of 1 per buyer, offering:
      | product | units |
      | ticket  | 10    |
    And the sale is ready to sell
    When Alice reserves 1 ticket with idempotency key "pause-1"
    And the operator pauses the sale
    And Alice sends the same request again
    Then Alice's two answers name the same reservation

  Scenario: A sale still in demand is extended, and buyers reserve after its planned end
    Given a sale that has started and ends in 10 minutes, with a limit of 1 per buyer, offering:
      | product | units |
      | ticket  | 10    |
    And the sale is ready to sell
    When the operator extends the sale by 1 hour
    Then the sale now ends 1 hour later than planned
    When the sale's planned end has passed
    And Alice reserves 1 ticket
    Then the reservation is accepted and holds 1 ticket

  Scenario: A running sale is never cut short below now
    Given a sale that has started and ends in 10 minutes, with a limit of 1 per buyer, offering:
      | product | units |
      | ticket  | 10    |
    And the sale is ready to sell
    When the operator tries to end the sale 1 minute ago
    Then the operator is refused because a running sale cannot end in the past
    When Alice reserves 1 ticket
    Then the reservation is accepted and holds 1 ticket

  Scenario: A sale that has ended stays ended
    Given a sale that ended 1 minute ago, offering:
      | product | units |
      | ticket  | 10    |
    And the sale is ready to sell
    When the operator extends the sale by 1 hour
    Then the operator is refused because the sale has already ended
    When Alice reserves 1 ticket
    Then Alice is refused because the sale has ended

  Scenario: Before the start, the operator opens the sale earlier
    Given a sale that starts in 1 hour, offering:
      | product | units |
      | ticket  | 10    |
    And the sale is ready to sell
    When the operator moves the sale's start 30 minutes earlier
    And Alice reserves 1 ticket
    Then Alice is refused because the sale has not started yet, and is told when it starts
    When the sale opens
    And Alice reserves 1 ticket
    Then the reservation is accepted and holds 1 ticket
