// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title Multicall3: batches reads into one call, ABI-compatible with the Multicall3 subset we use.
contract Multicall3 {
    struct Call3 {
        address target;
        bool allowFailure;
        bytes callData;
    }

    struct Result {
        bool success;
        bytes returnData;
    }

    /// @notice Calls each target in order; reverts if a call that does not allow failure fails.
    function aggregate3(Call3[] calldata calls) external payable returns (Result[] memory returnData) {
        uint256 length = calls.length;
        returnData = new Result[](length);
        for (uint256 i; i < length; ++i) {
            Call3 calldata c = calls[i];
            (bool success, bytes memory ret) = c.target.call(c.callData);
            require(success || c.allowFailure, "Multicall3: call failed");
            returnData[i] = Result(success, ret);
        }
    }

    function getEthBalance(address addr) external view returns (uint256 balance) {
        balance = addr.balance;
    }

    function getBlockNumber() external view returns (uint256 blockNumber) {
        blockNumber = block.number;
    }

    function getCurrentBlockTimestamp() external view returns (uint256 timestamp) {
        timestamp = block.timestamp;
    }

    function getChainId() external view returns (uint256 chainid) {
        chainid = block.chainid;
    }
}
