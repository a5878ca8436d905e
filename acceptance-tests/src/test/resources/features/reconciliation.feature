Feature: The fast store is reconciled with the shop's books
  In order to sell exactly what the shop has, even after the fast store lost writes or someone changed the stock by hand
  As the operator of a flash sale
  I want every difference between the fast store and the shop's books found, named and repaired from the books, and every change of stock recorded with who made it and why

  Scenario: The fast store loses a product's stock figures and is repaired from the shop's books
    Given a sale that has started with a limit of 2 per buyer, offering:
      | product | units |
      | ticket  | 10    |
      | mug     | 5     |
    And the sale is ready to sell
    And Alice holds 2 tickets
    And Bob holds 1 mug
    And within 30 seconds every accepted reservation is settled in the shop's books
    When the fast store loses its stock figures of tickets
    And the operator reconciles the sale
    Then the reconciliation finds the fast store behind the shop's books on tickets, and repairs it
    And the reconciliation finds nothing wrong with mugs
    And the shop's books and the fast store agree
    And 8 tickets are still available

  Scenario: A sale split into slices: the slice that loses its figures is repaired from the shop's books, the others are left alone
    Given a sale that has started with a limit of 1 per buyer, split into 3 slices, offering:
      | product | units |
      | ticket  | 30    |
    And the sale is ready to sell
    When 12 buyers each send 1 reservation request at the same moment
    Then exactly 12 reservations are accepted
    And within 30 seconds every accepted reservation is settled in the shop's books
    When the fast store loses its stock figures of tickets in slice 1 of the sale
    And the operator reconciles the sale
    Then the reconciliation repairs the tickets of slice 1 alone from the shop's books, and finds nothing wrong in the other 2 slices
    And the shop's books and the fast store agree
    And 18 tickets are still available

  Scenario: The fast store loses the whole sale mid-sale: buyers wait until it is rebuilt, then only the units left are sold
    Given a sale that has started with a limit of 1 per buyer, offering:
      | product | units |
      | ticket  | 10    |
    And the sale is ready to sell
    And Alice holds 1 ticket
    And Bob holds 1 ticket
    And Carol holds 1 ticket
    And Dave holds 1 ticket
    And within 30 seconds every accepted reservation is settled in the shop's books
    And the shop has stopped loading sales into the fast store by itself
    When the fast store loses everything it held of the sale
    And Erin reserves 1 ticket
    Then Erin is asked to come back in a moment
    When the operator reconciles the sale
    Then the reconciliation reports the fast store rebuilt from the shop's books
    And 6 tickets are still available
    When Alice reserves 1 ticket
    Then Alice is refused as over the limit of 1 ticket, already holding 1
    When 20 buyers each send 1 reservation request at the same moment
    Then exactly 6 reservations are accepted
    And within 30 seconds every accepted reservation is settled in the shop's books
    And the shop's books show 10 tickets sold out of 10
    And the shop's books and the fast store agree

  Scenario: A sale split into slices loses one slice mid-sale: only its buyers wait, it is rebuilt from the shop's books, and the sale sells exactly its stock
    Given a sale that has started with a limit of 1 per buyer, split into 3 slices, offering:
      | product | units |
      | ticket  | 30    |
    And the sale is ready to sell
    And Alice's home is slice 1 of the sale
    And Bob's home is slice 0 of the sale
    And Erin's home is slice 1 of the sale
    And Alice holds 1 ticket
    When 12 buyers each send 1 reservation request at the same moment
    Then exactly 12 reservations are accepted
    And within 30 seconds every accepted reservation is settled in the shop's books
    And the shop has stopped loading sales into the fast store by itself
    When the fast store loses everything it held of slice 1 of the sale
    And Erin reserves 1 ticket
    Then Erin is asked to come back in a moment
    When Bob reserves 1 ticket
    Then the reservation is accepted
    When within 30 seconds a reconciliation of the sale rebuilds the fast store from the shop's books
    Then 16 tickets are still available
    When Alice reserves 1 ticket
    Then Alice is refused as over the limit of 1 ticket, already holding 1
    When Erin sends the same request again
    Then the reservation is accepted
    And 15 tickets are still available
    When 40 buyers each send 1 reservation request at the same moment
    Then exactly 15 reservations are accepted
    And the other 25 are refused as sold out or over the limit
    And within 30 seconds every accepted reservation is settled in the shop's books
    And the shop's books show 30 tickets sold out of 30
    And the shop's books and the fast store agree

  Scenario: A reservation whose announcement never reached the order pipeline is sent again and becomes an order
    Given a sale that has started with a limit of 1 per buyer, offering:
      | product | units |
      | ticket  | 5     |
    And the sale is ready to sell
    And the shop has stopped turning reservations into orders for a while
    And Alice holds 1 ticket
    And the announcement of Alice's reservation is lost before it leaves the fast store
    When the shop turns reservations into orders again
    And within 20 seconds a reconciliation of the sale finds the tickets out of line
    Then the reconciliation reports Alice's reservation of tickets as unknown to the shop's books, and sends it again
    And within 30 seconds every accepted reservation is settled in the shop's books
    And the shop's books hold exactly 1 order, none failed
    And Alice sees her reservation as ordered
    And the shop's books and the fast store agree

  Scenario: An order whose confirmation never reached the fast store is confirmed there
    Given a sale that has started with a limit of 1 per buyer, offering:
      | product | units |
      | ticket  | 5     |
    And the sale is ready to sell
    And Alice holds 1 ticket
    And within 30 seconds every accepted reservation is settled in the shop's books
    And the fast store never heard that Alice's reservation became an order
    When within 20 seconds a reconciliation of the sale finds the tickets out of line
    Then the reconciliation reports Alice's order of tickets as missing from the fast store, and confirms it there
    And Alice sees her reservation as ordered
    And the shop's books and the fast store agree

  Scenario: The operators add and remove stock during a sale, recorded with who and why, never below what is sold
    Given a sale that has started with a limit of 2 per buyer, offering:
      | product | units |
      | ticket  | 10    |
    And the sale is ready to sell
    And Alice holds 2 tickets
    And Bob holds 2 tickets
    And within 30 seconds every accepted reservation is settled in the shop's books
    When the operator Olivia adds 5 tickets because "a returned pallet was found", approved by Peter
    Then the change is recorded with its operator and reason, taking tickets from 10 to 15
    And the shop's books and the fast store agree
    When the operator Olivia removes 9 tickets because "damaged in the warehouse", approved by Peter
    Then the change is recorded with its operator and reason, taking tickets from 15 to 6
    And the fast store offers 2 tickets out of 6
    When the operator Olivia removes 3 tickets because "counted twice", approved by Peter
    Then the change is refused because fewer tickets would remain than are already sold
    And the sale's stock changes list exactly the recorded changes, in order
    And the shop's books and the fast store agree
    When 10 buyers each send 1 reservation request at the same moment
    Then exactly 2 reservations are accepted
    And within 30 seconds every accepted reservation is settled in the shop's books
    And the shop's books show 6 tickets sold out of 6
    And the shop's books and the fast store agree

  Scenario: A busy sale reconciled again and again shows no difference and repairs nothing
    Given a sale that has started with a limit of 1 per buyer, offering:
      | product | units |
      | ticket  | 200   |
    And the sale is ready to sell
    When 120 buyers each reserve one ticket, spread over 4 seconds, while the operator reconciles the sale again and again
    Then no reconciliation found any drift or repaired anything, in at least 5 runs
    And exactly 120 reservations are accepted
    And within 30 seconds every accepted reservation is settled in the shop's books
    And the shop's books show 120 tickets sold out of 200
    And the shop's books and the fast store agree

  Scenario: A repair worked out before two moves that cancel out is refused, and the buyers keep what they hold
    Given a sale that has started with a limit of 5 per buyer, offering:
      | product | units |
      | ticket  | 10    |
    And the sale is ready to sell
    And the shop has stopped reading the order queue for a while
    And Alice holds 2 tickets
    When a repair of the tickets is worked out from a look at the fast store
    And Bob reserves 2 tickets
    And Alice cancels her reservation
    And that repair is applied to the fast store
    Then the fast store refuses the repair as out of date, and every buyer keeps what they hold
    When the shop reads the order queue again
    Then within 30 seconds every accepted reservation is settled in the shop's books
    And the shop's books show 2 tickets sold out of 10
    And the shop's books and the fast store agree

  Scenario: A sale holding a hundred thousand reservations is reconciled without stalling the fast store
    Given a sale that has started with a limit of 1 per buyer, offering:
      | product | units |
      | ticket  | 100   |
    And the sale is ready to sell
    And Alice holds 1 ticket
    And within 30 seconds every accepted reservation is settled in the shop's books
    And the fast store also keeps the records of 100000 earlier reservations of tickets, ordered and paid long ago
    When the operator reconciles the sale
    Then the reconciliation finds nothing wrong with tickets
    And no command the fast store ran for the sale took 250 milliseconds or more
    When Bob reserves 1 ticket
    Then the reservation is accepted

  Scenario: The fast store loses a sale's settings and stock but keeps an old copy of a reservation: it is rebuilt from the shop's orders, and the units come back once
    Given a sale that has started with a limit of 1 per buyer, offering:
      | product | units |
      | ticket  | 10    |
    And the sale is ready to sell
    And Alice holds 1 ticket
    And Bob holds 1 ticket
    And within 30 seconds every accepted reservation is settled in the shop's books
    And the shop has stopped loading sales into the fast store by itself
    When the fast store loses the sale's settings and stock figures, keeping an old copy of Alice's reservation from before it became an order
    And Erin reserves 1 ticket
    Then Erin is asked to come back in a moment
    When the operator reconciles the sale
    Then the reconciliation reports the fast store rebuilt from the shop's books
    And 8 tickets are still available
    And Alice sees her reservation as ordered
    When Alice cancels her order
    Then Alice's order is cancelled
    And 9 tickets are still available
    And the shop's books and the fast store agree

  Scenario: A buyer's cancellation that won in the fast store while her order was placed ends with the order cancelled
    Given a sale that has started with a limit of 1 per buyer, offering:
      | product | units |
      | ticket  | 5     |
    And the sale is ready to sell
    And Alice holds 1 ticket
    And within 30 seconds every accepted reservation is settled in the shop's books
    And Alice's cancellation won in the fast store while her order was placed, and the shop's books never heard of it
    When within 20 seconds a reconciliation of the sale finds the tickets out of line
    Then the reconciliation reports Alice's cancellation of tickets as missing from the shop's books, and cancels her order there
    And the shop's books show Alice's order cancelled
    And 5 tickets are still available
    And the shop's books and the fast store agree

  Scenario: The shop falls far behind in reading the order queue: the reservations waiting there are not sent again, and none is lost
    Given a sale that has started with a limit of 1 per buyer, offering:
      | product | units |
      | ticket  | 10    |
    And the sale is ready to sell
    And the shop has stopped reading the order queue for a while
    And Alice holds 1 ticket
    And Bob holds 1 ticket
    And within 20 seconds every accepted reservation is waiting in the order queue
    And they have waited there longer than a reconciliation's grace period
    When the operator reconciles the sale
    Then the reconciliation sends no reservation of the sale again
    When the operator reconciles the sale
    Then the reconciliation sends no reservation of the sale again
    When the shop reads the order queue again
    Then within 30 seconds every accepted reservation is settled in the shop's books
    And the shop's books hold exactly 2 orders, none failed
    And the shop's books and the fast store agree

  Scenario: After the fast store loses a sale, buyers wait until every reservation on its way has reached the shop's books
    Given a sale that has started with a limit of 1 per buyer, offering:
      | product | units |
      | ticket  | 10    |
    And the sale is ready to sell
    And the shop has stopped loading sales into the fast store by itself
    And the shop has stopped reading the order queue for a while
    And Alice holds 1 ticket
    And Bob holds 1 ticket
    And within 20 seconds every accepted reservation is waiting in the order queue
    When the fast store loses everything it held of the sale
    And the operator reconciles the sale
    Then the reconciliation reports the fast store waiting for the order pipeline before it is rebuilt
    When Erin reserves 1 ticket
    Then Erin is asked to come back in a moment
    When the shop reads the order queue again
    And within 30 seconds a reconciliation of the sale rebuilds the fast store from the shop's books
    Then 8 tickets are still available
    And the shop's books hold exactly 2 orders, none failed
    When Alice reserves 1 ticket
    Then Alice is refused as over the limit of 1 ticket, already holding 1
    And the shop's books and the fast store agree

  Scenario: Loading a lost sale by hand while its reservations are still on their way is refused
    Given a sale that has started with a limit of 1 per buyer, offering:
      | product | units |
      | ticket  | 10    |
    And the sale is ready to sell
    And the shop has stopped loading sales into the fast store by itself
    And the shop has stopped reading the order queue for a while
    And Alice holds 1 ticket
    And within 20 seconds every accepted reservation is waiting in the order queue
    When the fast store loses everything it held of the sale
    And the operator loads the sale into the fast store by hand
    Then loading the sale by hand is refused because the sale has reservations
    When Erin reserves 1 ticket
    Then Erin is asked to come back in a moment
    When the shop reads the order queue again
    And within 30 seconds a reconciliation of the sale rebuilds the fast store from the shop's books
    Then 9 tickets are still available
    And the shop's books hold exactly 1 order, none failed
    And the shop's books and the fast store agree

  Scenario: A difference larger than the shop lets reconciliation repair by itself waits for an operator, who approves the repair
    Given a sale that has started with a limit of 2 per buyer, offering:
      | product | units |
      | ticket  | 100   |
    And the sale is ready to sell
    And Alice holds 2 tickets
    And within 30 seconds every accepted reservation is settled in the shop's books
    When the fast store counts 30 more tickets as sold than it did
    And the operator reconciles the sale
    Then the reconciliation leaves the tickets as found and asks an operator to review a difference of 30 units
    And the tickets wait for an operator's approval
    When the fast store counts 5 more tickets as sold than it did
    And the operator approves the repair of the tickets
    Then the approved repair mends a difference of 35 units from the shop's books, recorded as approved by the operator
    And nothing waits for an operator's approval
    And the shop's books and the fast store agree
    And 98 tickets are still available
    When the operator approves the repair of the tickets
    Then the approval is refused because no repair of the tickets waits for one
    When the fast store counts 3 more tickets as sold than it did
    And the operator reconciles the sale
    Then the reconciliation repairs the tickets by itself
    And nothing waits for an operator's approval
    And the shop's books and the fast store agree
