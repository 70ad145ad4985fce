package server

import "github.com/julienschmidt/httprouter"

// routes is the one route table; it mirrors docs/API.md. The access
// classes are server.go's: public, ownAccount, anyUser, adminOnly and
// fiscalRead (an auditor's, docs/FISCAL.md "The auditor's access").
func (s *Server) routes(r *httprouter.Router) {
	s.route(r, "GET", "/api/health", public, s.health)
	s.route(r, "GET", "/api/openapi.json", public, s.openAPI)

	// Authentication and users
	s.route(r, "POST", "/api/auth/login", public, s.login)
	s.route(r, "GET", "/api/auth/me", ownAccount, s.me)
	s.route(r, "POST", "/api/auth/password", ownAccount, s.changeOwnPassword)
	s.route(r, "GET", "/api/restaurant", ownAccount, s.restaurant)
	s.route(r, "PATCH", "/api/restaurant", adminOnly, s.updateRestaurant)
	s.route(r, "GET", "/api/dashboard", adminOnly, s.dashboard)
	s.route(r, "GET", "/api/replica", adminOnly, s.replicaState)
	s.route(r, "GET", "/api/replica/recovery-sheet", adminOnly, s.getRecoverySheet)
	s.route(r, "GET", "/api/replica/recovery-sheet/status", adminOnly, s.recoverySheetStatus)
	s.route(r, "POST", "/api/replica/recovery-sheet/confirm", adminOnly, s.confirmRecoverySheet)
	s.route(r, "GET", "/api/users", adminOnly, s.listUsers)
	s.route(r, "GET", "/api/users/former", adminOnly, s.listFormerUsers)
	s.route(r, "GET", "/api/users/erasures", adminOnly, s.listErasures)
	s.route(r, "POST", "/api/users", adminOnly, s.createUser)
	s.route(r, "PUT", "/api/users/:id", adminOnly, s.updateUser)
	s.route(r, "DELETE", "/api/users/:id", adminOnly, s.deleteUser)
	s.route(r, "POST", "/api/users/:id/erase", adminOnly, s.eraseUser)
	s.route(r, "GET", "/api/retention", adminOnly, s.retention)
	s.route(r, "POST", "/api/retention/confirm-clock", adminOnly, s.confirmRetentionClock)
	s.route(r, "GET", "/api/audit-log", adminOnly, s.auditLog)

	// HQ mode (posbox hq, docs/HQ.md): only the routes above from health to
	// users, and this; a box answers 404 here.
	s.route(r, "GET", "/api/hq/restaurants", adminOnly, s.hqRestaurants)

	// Shifts and time entries
	s.route(r, "POST", "/api/shifts/clock-in", anyUser, s.clockIn)
	s.route(r, "POST", "/api/shifts/clock-out", anyUser, s.clockOut)
	s.route(r, "GET", "/api/shifts/my-status", anyUser, s.myStatus)
	s.route(r, "GET", "/api/shifts/mine", anyUser, s.myShifts)
	s.route(r, "GET", "/api/shifts", adminOnly, s.listShifts)
	s.route(r, "POST", "/api/shifts", adminOnly, s.createShift)
	s.route(r, "POST", "/api/shifts/publish", adminOnly, s.publishWeek)
	s.route(r, "POST", "/api/shifts/copy-week", adminOnly, s.copyWeek)
	s.route(r, "PUT", "/api/shifts/:id", adminOnly, s.updateShift)
	s.route(r, "PATCH", "/api/shifts/:id/status", adminOnly, s.setShiftStatus)
	s.route(r, "DELETE", "/api/shifts/:id", adminOnly, s.deleteShift)
	s.route(r, "GET", "/api/time-entries", adminOnly, s.listTimeEntries)
	s.route(r, "GET", "/api/time-entries/export", adminOnly, s.exportTimeEntries)
	s.route(r, "GET", "/api/time-entries/report", adminOnly, s.timeEntryReport)
	s.route(r, "GET", "/api/time-entries/payroll", adminOnly, s.exportPayroll)
	s.route(r, "POST", "/api/time-entries", adminOnly, s.createTimeEntry)
	s.route(r, "GET", "/api/time-entries/history/:id", adminOnly, s.getTimeEntry)
	s.route(r, "PATCH", "/api/time-entries/:id", adminOnly, s.correctTimeEntry)
	s.route(r, "POST", "/api/time-entries/:id/close", adminOnly, s.closeTimeEntry)

	s.discountRoutes(r)

	// TSE
	s.route(r, "POST", "/api/tse/transactions", anyUser, s.createTSETransaction)
	s.route(r, "GET", "/api/tse/transactions/:id", fiscalRead|staffToo, s.getTSETransaction)
	s.route(r, "GET", "/api/tse/transactions", fiscalRead, s.listTSETransactions)
	s.route(r, "GET", "/api/tse/status", fiscalRead, s.tseStatus)
	s.route(r, "POST", "/api/tse/self-test", adminOnly, s.startTSESelfTest)
	s.route(r, "GET", "/api/tse/info", fiscalRead, s.tseInfo)
	s.route(r, "GET", "/api/tse/queue", adminOnly, s.tseQueueView)
	s.route(r, "POST", "/api/tse/queue/:id/retry", adminOnly, s.tseQueueAction("retry"))
	s.route(r, "POST", "/api/tse/queue/:id/cancel", adminOnly, s.tseQueueAction("cancel"))
	s.route(r, "GET", "/api/tse/outages", fiscalRead, s.tseOutages)
	s.route(r, "GET", "/api/tse/after-restore", adminOnly, s.afterRestore)
	s.route(r, "POST", "/api/tse/after-restore/acknowledge", adminOnly, s.acknowledgeAfterRestore)
	s.route(r, "GET", "/api/tse/archives", fiscalRead, s.listTSEArchives)
	s.route(r, "POST", "/api/tse/archives", adminOnly, s.exportTSEArchive)
	s.route(r, "GET", "/api/tse/archives/:id", fiscalRead, s.getTSEArchive)
	s.route(r, "GET", "/api/tse/archives/:id/file", fiscalRead, s.downloadTSEArchive)
	s.tseLifeRoutes(r)

	s.fiscalRoutes(r)
	s.cashRoutes(r)

	// Notifications and events
	s.route(r, "GET", "/api/notifications/settings", adminOnly, s.listNotificationSettings)
	s.route(r, "POST", "/api/notifications/settings", adminOnly, s.createNotificationSetting)
	s.route(r, "PUT", "/api/notifications/settings/:id", adminOnly, s.updateNotificationSetting)
	s.route(r, "DELETE", "/api/notifications/settings/:id", adminOnly, s.deleteNotificationSetting)
	s.route(r, "GET", "/api/notifications/logs", adminOnly, s.listNotificationLogs)
	s.route(r, "POST", "/api/notifications/test", adminOnly, s.testNotification)
	s.route(r, "GET", "/api/notifications/deliveries", adminOnly, s.listDeliveries)
	s.route(r, "POST", "/api/events", anyUser, s.publishEvent)
	s.route(r, "GET", "/api/settings/email", adminOnly, s.getEmailSettings)
	s.route(r, "PUT", "/api/settings/email", adminOnly, s.putEmailSettings)
	s.route(r, "GET", "/api/settings/sms", adminOnly, s.getSMSSettings)
	s.route(r, "PUT", "/api/settings/sms", adminOnly, s.putSMSSettings)
}

// fixedRoutes are the routes whose fixed segment stands where a route of
// routes() has an :id (POST /api/discounts/evaluate beside
// /api/discounts/:id/redeem): httprouter v1.3 refuses the two in one
// tree, so they get a router of their own, asked first for exactly the
// paths returned.
func (s *Server) fixedRoutes(r *httprouter.Router) []string {
	s.route(r, "POST", "/api/discounts/evaluate", anyUser, s.evaluateDiscounts)
	return []string{"/api/discounts/evaluate"}
}

// discountRoutes is the route table's discounts (docs/API.md section 4):
// the admins' management, the redemption at the till (any user) and the
// POS catalogue that names their targets.
func (s *Server) discountRoutes(r *httprouter.Router) {
	s.route(r, "GET", "/api/discounts", adminOnly, s.listDiscounts)
	s.route(r, "POST", "/api/discounts", adminOnly, s.createDiscount)
	s.route(r, "PUT", "/api/discounts/:id", adminOnly, s.updateDiscount)
	s.route(r, "DELETE", "/api/discounts/:id", adminOnly, s.deleteDiscount)
	s.route(r, "POST", "/api/discounts/:id/redeem", anyUser, s.redeemDiscount)
	s.route(r, "POST", "/api/discounts/:id/code-batches", adminOnly, s.createCodeBatch)
	s.route(r, "GET", "/api/discounts/:id/redemptions", adminOnly, s.listDiscountRedemptions)
	s.route(r, "GET", "/api/discounts/:id/codes", adminOnly, s.listDiscountCodes)
	s.route(r, "GET", "/api/discounts/:id/codes.csv", adminOnly, s.discountCodesCSV)
	s.route(r, "GET", "/api/discounts/:id/codes/print", adminOnly, s.discountCodesPrint)
	// The POS catalogue (docs/API.md): the till sends it with a staff
	// token, the console reads it.
	s.route(r, "GET", "/api/catalogue", adminOnly, s.getCatalogue)
	s.route(r, "PUT", "/api/catalogue", anyUser, s.putCatalogue)
}

// cashRoutes is the route table's cash book (docs/CASHDESK.md): the
// expected cash is the owner's and the auditor's (staff count blind),
// staff book what a shift needs (the handler checks the kind).
func (s *Server) cashRoutes(r *httprouter.Router) {
	s.route(r, "GET", "/api/cash/registers", fiscalRead, s.cashRegisters)
	s.route(r, "GET", "/api/cash/movements", fiscalRead, s.listCashMovements)
	s.route(r, "POST", "/api/cash/movements", anyUser, s.createCashMovement)
	s.route(r, "POST", "/api/cash/movements/:id/reverse", adminOnly, s.reverseCashMovement)
	s.route(r, "GET", "/api/cash/counts", fiscalRead, s.listCashCounts)
	s.route(r, "POST", "/api/cash/counts", anyUser, s.createCashCount)
	// The waiter settlement: an admin's for anyone, staff's for
	// themselves (the handler checks).
	s.route(r, "GET", "/api/cash/settlement", anyUser, s.cashSettlement)
	s.route(r, "GET", "/api/cash/settlement/print", anyUser, s.cashSettlementPrint)
}

// fiscalRoutes is the route table's fiscal records (docs/FISCAL.md):
// closings, the DSFinV-K export, the master data and the §146a (4) AO
// registration and the procedure document.
func (s *Server) fiscalRoutes(r *httprouter.Router) {
	s.route(r, "POST", "/api/tse/closings", anyUser, s.createClosing)
	s.route(r, "GET", "/api/tse/closings", fiscalRead, s.listClosings)
	s.route(r, "GET", "/api/tse/closings/:id", fiscalRead|staffToo, s.getClosing)
	s.route(r, "GET", "/api/tse/closings/:id/report", fiscalRead|staffToo, s.closingReport)
	s.route(r, "GET", "/api/fiscal/dsfinvk", fiscalRead, s.exportDSFinVK)
	s.route(r, "GET", "/api/fiscal/master-data", fiscalRead, s.getMasterData)
	s.route(r, "PUT", "/api/fiscal/master-data", adminOnly, s.putMasterData)
	s.route(r, "GET", "/api/fiscal/datev", adminOnly, s.exportDATEV)
	s.route(r, "GET", "/api/fiscal/datev/accounts", adminOnly, s.getDATEVAccounts)
	s.route(r, "PUT", "/api/fiscal/datev/accounts", adminOnly, s.putDATEVAccounts)
	s.route(r, "GET", "/api/fiscal/registration", fiscalRead, s.getRegistration)
	s.route(r, "GET", "/api/fiscal/registration/print", fiscalRead, s.printRegistration)
	s.route(r, "GET", "/api/fiscal/registration/elster.xml", fiscalRead, s.getRegistrationELSTER)
	s.route(r, "GET", "/api/fiscal/registration/due", adminOnly, s.getRegistrationDue)
	s.route(r, "POST", "/api/fiscal/registration/submitted", adminOnly, s.postRegistrationSubmitted)
	s.route(r, "GET", "/api/fiscal/registration/submissions", fiscalRead, s.listRegistrationSubmissions)
	s.route(r, "GET", "/api/fiscal/registration/submissions/:id/elster.xml", fiscalRead, s.getRegistrationSubmissionFile)
	s.route(r, "GET", "/api/fiscal/procedure-document", fiscalRead, s.getProcDoc)
	s.route(r, "GET", "/api/fiscal/procedure-document/print", fiscalRead, s.printProcDoc)
	s.route(r, "GET", "/api/fiscal/procedure-document/versions", fiscalRead, s.listProcDocVersions)
	s.route(r, "GET", "/api/fiscal/procedure-document/versions/:id", fiscalRead, s.getProcDocVersion)
	s.route(r, "GET", "/api/fiscal/procedure-document/versions/:id/print", fiscalRead, s.printProcDocVersion)
	s.route(r, "GET", "/api/fiscal/procedure-document/owner-texts", fiscalRead, s.listOwnerTexts)
	s.route(r, "PUT", "/api/fiscal/procedure-document/owner-text", adminOnly, s.putOwnerText)
}

// tseLifeRoutes are the TSE's life beyond signing (docs/TSE.md): the
// archive's declared start and the replacement of the TSS.
func (s *Server) tseLifeRoutes(r *httprouter.Router) {
	s.route(r, "GET", "/api/tse/archive-starts", fiscalRead, s.listTSEArchiveStarts)
	s.route(r, "POST", "/api/tse/archive-starts", adminOnly, s.createTSEArchiveStart)
	s.route(r, "GET", "/api/tse/replacements", fiscalRead, s.listTSEReplacements)
	s.route(r, "POST", "/api/tse/replacement", adminOnly, s.startTSEReplacement)
	s.route(r, "POST", "/api/tse/replacement/continue", adminOnly, s.continueTSEReplacement)
}
